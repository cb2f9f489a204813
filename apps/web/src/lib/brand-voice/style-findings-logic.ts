import { styleRuleIds, type StyleCheck, type StyleFinding, type StyleRule } from '@gem/contracts/brand-voice';

/**
 * What the findings view works out without asking the server again: which findings still hold
 * after some of them were applied (moved by the length the fixes changed, or dropped where a fix
 * touched them), the counts per rule, and how the text splits into marked and plain parts.
 */

function touches(finding: StyleFinding, applied: StyleFinding): boolean {
  if (finding.start === finding.end && applied.start === applied.end) return finding.start === applied.start;
  if (finding.start === finding.end) return applied.start < finding.start && finding.start < applied.end;
  if (applied.start === applied.end) return finding.start < applied.start && applied.start < finding.end;
  return finding.start < applied.end && applied.start < finding.end;
}

/**
 * The findings that still hold in `after`, the text `before` became once `applied` (spans that
 * do not overlap, from one check) were fixed: each moved by what the fixes before it changed; one
 * a fix touched, or whose words are no longer at its place, dropped.
 */
export function findingsAfter(
  after: string,
  findings: readonly StyleFinding[],
  applied: readonly StyleFinding[],
): StyleFinding[] {
  const appliedIds = new Set(applied.map((finding) => finding.id));
  const kept: StyleFinding[] = [];
  for (const finding of findings) {
    if (appliedIds.has(finding.id) || applied.some((fix) => touches(finding, fix))) continue;
    let shift = 0;
    for (const fix of applied) {
      if (fix.end <= finding.start)
        shift += (fix.fix?.replacement.length ?? fix.end - fix.start) - (fix.end - fix.start);
    }
    const moved = { ...finding, start: finding.start + shift, end: finding.end + shift };
    if (moved.end <= after.length && after.slice(moved.start, moved.end) === moved.text) kept.push(moved);
  }
  return kept;
}

/** A count per rule, every rule present. */
export function countFindings(findings: readonly StyleFinding[]): Record<StyleRule, number> {
  const counts = Object.fromEntries(styleRuleIds.map((rule) => [rule, 0])) as Record<StyleRule, number>;
  for (const finding of findings) counts[finding.rule] += 1;
  return counts;
}

/** The check with only `findings` left, its counts recounted (the score stays the check's). */
export function withFindings(check: StyleCheck, findings: StyleFinding[]): StyleCheck {
  return { ...check, findings, counts: countFindings(findings) };
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'mark'; text: string; finding: StyleFinding };

/**
 * The text in parts: plain runs and one mark per finding, in order. A finding that starts inside
 * one marked already is left out of the text (it is still listed); a place (start === end, the
 * missing disclaimer) is a mark of no text.
 */
export function textParts(text: string, findings: readonly StyleFinding[]): TextPart[] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: TextPart[] = [];
  let at = 0;
  for (const finding of sorted) {
    if (finding.start < at || finding.end > text.length) continue;
    if (finding.start > at) parts.push({ kind: 'text', text: text.slice(at, finding.start) });
    parts.push({ kind: 'mark', text: text.slice(finding.start, finding.end), finding });
    at = finding.end;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}

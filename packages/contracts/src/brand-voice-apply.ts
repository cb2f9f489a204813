import type { StyleFinding } from './brand-voice';

/**
 * Applying the style check's fixes: 'Apply' one finding, 'Apply all' every finding with a safe
 * fix. Only the finding's span changes; the rest of the text stays byte for byte as it was (the
 * page keeps the text before, for Undo).
 */

export class StaleFindingError extends Error {
  constructor() {
    super('The text has changed since it was checked; check it again.');
    this.name = 'StaleFindingError';
  }
}

function spanIsCurrent(text: string, finding: StyleFinding): boolean {
  return (
    finding.start >= 0 &&
    finding.end <= text.length &&
    finding.start <= finding.end &&
    text.slice(finding.start, finding.end) === finding.text
  );
}

/** The text with one finding's fix, safe or not (the marketer chose it); a finding without a fix changes nothing. */
export function applyFix(text: string, finding: StyleFinding): string {
  if (!finding.fix) return text;
  if (!spanIsCurrent(text, finding)) throw new StaleFindingError();
  return text.slice(0, finding.start) + finding.fix.replacement + text.slice(finding.end);
}

/**
 * The findings Apply all applies: those with a safe fix, none overlapping another (of two that
 * overlap, the one that starts first, then the shorter), in the order they are applied, last
 * first, so each one's offsets still hold when it is.
 */
export function safeFixes(findings: readonly StyleFinding[]): StyleFinding[] {
  const chosen: StyleFinding[] = [];
  const sorted = findings
    .filter((finding) => finding.fix?.safe)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  let reached = -1;
  for (const finding of sorted) {
    // Two insertions at one place, or an insertion inside a span, would make the order matter.
    if (finding.start < reached || (finding.start === reached && chosen.at(-1)?.start === finding.start))
      continue;
    chosen.push(finding);
    reached = finding.end;
  }
  return chosen.reverse();
}

/** The text with every safe fix applied (safeFixes), right to left. */
export function applyAll(text: string, findings: readonly StyleFinding[]): string {
  let result = text;
  for (const finding of safeFixes(findings)) {
    if (!spanIsCurrent(text, finding)) throw new StaleFindingError();
    result =
      result.slice(0, finding.start) + (finding.fix?.replacement ?? finding.text) + result.slice(finding.end);
  }
  return result;
}

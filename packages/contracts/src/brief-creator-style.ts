import { applyAll, applyFix, safeFixes } from './brand-voice-apply';
import type { StyleFinding } from './brand-voice';
import { briefFields, type BriefData, type BriefField } from './brief-creator-data';

/**
 * The brief as the style check reads it (issue 31): the words the brief holds, as the exports
 * write them. The server checks this text after every turn (the final event's `briefStyle`) and
 * the page checks it on demand, so the findings' offsets mean the same on both sides; Apply puts
 * each fix back into the field it falls in.
 */

/** Between two fields (and two items of a list), as the exports set them apart. */
export const BRIEF_STYLE_SEPARATOR = '\n\n';

/** Where one field's text (or one item of a list) lies in the brief's text. */
export type BriefTextPart = { field: BriefField; index: number | null; start: number; end: number };

/** The fields with words in them: not the campaign types (a choice) nor the date. */
const writtenFields = briefFields.filter((field) => field !== 'campaignType' && field !== 'eventDate');

/** The brief's written fields in their order, each list item on its own; the empty ones left out. */
export function briefStyleText(brief: BriefData): { text: string; parts: BriefTextPart[] } {
  const parts: BriefTextPart[] = [];
  let text = '';
  const add = (field: BriefField, index: number | null, value: string) => {
    if (value.trim() === '') return;
    if (text !== '') text += BRIEF_STYLE_SEPARATOR;
    parts.push({ field, index, start: text.length, end: text.length + value.length });
    text += value;
  };
  for (const field of writtenFields) {
    const value = brief[field];
    if (typeof value === 'string') add(field, null, value);
    else if (Array.isArray(value)) value.forEach((item, index) => add(field, index, item));
  }
  return { text, parts };
}

/** A finding moved to be one of `part`'s own, or null when it does not lie within the part. */
function within(part: BriefTextPart, finding: StyleFinding): StyleFinding | null {
  if (finding.start < part.start || finding.end > part.end) return null;
  return { ...finding, start: finding.start - part.start, end: finding.end - part.start };
}

/**
 * The brief with fixes applied in the fields they fall in: `one` finding (Apply), or every safe
 * fix of `findings` (Apply all). Null when a fix to apply lies across two fields: the brief cannot
 * take it. Throws StaleFindingError, as applyFix does, when a finding no longer matches.
 */
export function briefWithFixes(
  brief: BriefData,
  fixes: { one: StyleFinding } | { all: readonly StyleFinding[] },
): BriefData | null {
  const { parts } = briefStyleText(brief);
  const applied = 'one' in fixes ? [fixes.one] : safeFixes(fixes.all);
  if (applied.some((finding) => !parts.some((part) => within(part, finding)))) return null;
  const next: BriefData = { ...brief };
  for (const part of parts) {
    const own = applied.flatMap((finding) => within(part, finding) ?? []);
    if (own.length === 0) continue;
    const current =
      part.index === null ? (next[part.field] as string) : (next[part.field] as string[])[part.index]!;
    // An insertion at a field's end belongs to it once: the next field starts past a separator.
    const value = 'one' in fixes ? applyFix(current, own[0]!) : applyAll(current, own);
    if (part.index === null) (next as Record<BriefField, unknown>)[part.field] = value;
    else {
      const list = [...(next[part.field] as string[])];
      list[part.index] = value;
      (next as Record<BriefField, unknown>)[part.field] = list;
    }
  }
  return next;
}

import { diffWords } from 'diff';

/** A run of words both texts share, or that only the newer one has, or only the older one. */
export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

/**
 * How many word edits a comparison looks for before it gives up: two texts that far apart are
 * better read side by side, and the work stays bounded for the longest texts an asset holds.
 */
export const MAX_DIFF_EDITS = 1_000;

/**
 * The words `newer` adds to `older` and the words it drops, in reading order (jsdiff's word diff:
 * words and punctuation are compared, whitespace kept as written). Null when the texts differ in
 * more than MAX_DIFF_EDITS places.
 */
export function versionDiff(older: string, newer: string): DiffPart[] | null {
  const changes = diffWords(older, newer, { maxEditLength: MAX_DIFF_EDITS });
  if (!changes) return null;
  return changes.map((change) => ({
    kind: change.added ? 'added' : change.removed ? 'removed' : 'same',
    text: change.value,
  }));
}

/** How many words the newer text adds and drops. */
export function diffSummary(parts: readonly DiffPart[]): { added: number; removed: number } {
  const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
  let added = 0;
  let removed = 0;
  for (const part of parts) {
    if (part.kind === 'added') added += words(part.text);
    if (part.kind === 'removed') removed += words(part.text);
  }
  return { added, removed };
}

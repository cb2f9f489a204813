import { formatCount } from '@gem/contracts/format-number';
import { MAX_PROFILE_TERMS, MAX_TERM_LENGTH } from '@gem/contracts/brand-voice';
import { isStorableText } from '@gem/contracts/text-rules';

/**
 * What a brand voice profile's terms may be: checked before any expansion, so a profile save
 * with bad terms is refused with words naming the term, never half expanded.
 */

/** Terms one profile may hold (banned, preferred, the words they replace and names together). */
export const MAX_TERMS = MAX_PROFILE_TERMS;
export { MAX_TERM_LENGTH };

export type TermIssue = { index: number; message: string };

/** Problems with a list of terms; none means every term may be expanded and matched. */
export function termIssues(terms: readonly string[]): TermIssue[] {
  if (terms.length > MAX_TERMS) {
    return [
      {
        index: MAX_TERMS,
        message: `A profile holds at most ${formatCount(MAX_TERMS)} terms; this one has ${formatCount(terms.length)}.`,
      },
    ];
  }
  const issues: TermIssue[] = [];
  terms.forEach((term, index) => {
    if (!isStorableText(term)) {
      issues.push({
        index,
        message: 'The term contains characters that cannot be stored (a NUL character or a broken emoji).',
      });
    } else if (term.trim() === '') {
      issues.push({ index, message: 'The term is empty.' });
    } else if (term.trim().length > MAX_TERM_LENGTH) {
      issues.push({ index, message: `The term is longer than ${MAX_TERM_LENGTH} characters.` });
    }
  });
  return issues;
}

/** Thrown for terms termIssues refuses; the issues name each term by its place in the list. */
export class TermLimitError extends Error {
  constructor(readonly issues: TermIssue[]) {
    super(issues.map((issue) => `term ${issue.index + 1}: ${issue.message}`).join(' '));
    this.name = 'TermLimitError';
  }
}

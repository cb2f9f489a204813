import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInflection, type ExpandedTerm } from './inflection';
import { englishForms } from './inflection-core';
import { MAX_TERM_LENGTH, TermLimitError } from './term-limits';

// The real worker and the real dictionary: one worker for the file, its dictionary loaded once.
const inflection = createInflection();
// The worker's start and the dictionary's load (seconds on a busy machine) are not a test's.
beforeAll(() => inflection.expand(['tani']), 120_000);
afterAll(() => inflection.close());

async function expandOne(term: string): Promise<ExpandedTerm> {
  const [expanded] = await inflection.expand([term]);
  if (!expanded) throw new Error('no answer');
  return expanded;
}

describe('inflection', () => {
  it('expands an adjective to its forms, and not to a near word or the negated forms', async () => {
    const { words, sources } = await expandOne('tani');
    expect(sources).toEqual(['dictionary']);
    expect(words[0]).toEqual(
      expect.arrayContaining(['tani', 'tania', 'taniego', 'tanich', 'tanią', 'tanim']),
    );
    expect(words[0]).not.toContain('taniec');
    expect(words[0]).not.toContain('tańca');
    expect(words[0]).not.toContain('nietani');
  });

  it('finds the lemma of a form the user typed ("tania" → all forms of "tani")', async () => {
    const { words, sources } = await expandOne('tania');
    expect(sources).toEqual(['form-of-entry']);
    expect(words[0]).toEqual(expect.arrayContaining(['tani', 'taniego', 'tanich']));
  });

  it('keeps a noun apart from a word that only starts like it', async () => {
    const { words } = await expandOne('taniec');
    expect(words[0]).toEqual(expect.arrayContaining(['taniec', 'tańca', 'tańcem']));
    expect(words[0]).not.toContain('tani');
  });

  it('expands a phrase word by word ("rozwiązanie szyte na miarę")', async () => {
    const { words } = await expandOne('rozwiązanie szyte na miarę');
    expect(words).toHaveLength(4);
    expect(words[0]).toEqual(expect.arrayContaining(['rozwiązanie', 'rozwiązania', 'rozwiązaniem']));
    // The dictionary lists "szyte" without its forms: they come by analogy with other participles.
    expect(words[1]).toEqual(expect.arrayContaining(['szyte', 'szytego', 'szytym', 'szyta']));
    expect(words[2]).toEqual(['na']);
    expect(words[3]).toEqual(expect.arrayContaining(['miarę', 'miara', 'miary']));
  });

  it('gives an English word its English forms, and a capitalised term its forms in lower case', async () => {
    const [pricing, cheap] = await inflection.expand(['pricing', 'Tani']);
    expect(pricing?.words[0]).toEqual(englishForms('pricing'));
    expect(englishForms('strategy')).toContain('strategies');
    expect(englishForms('approach')).toContain('approaches');
    expect(cheap?.words[0]).toContain('taniego');
  });

  it('takes a term that is not made of words as it is, to be matched literally', async () => {
    expect(await expandOne('a.*b')).toEqual({ term: 'a.*b', words: [['a.*b']], sources: ['literal'] });
    expect((await expandOne('(x)')).sources).toEqual(['literal']);
  });

  it('refuses bad terms with words, before any work', async () => {
    const refusal = (terms: string[]) =>
      inflection.expand(terms).then(
        () => undefined,
        (err: unknown) => err,
      );
    const empty = await refusal(['tani', '  ']);
    expect(empty).toBeInstanceOf(TermLimitError);
    expect((empty as TermLimitError).issues).toEqual([{ index: 1, message: 'The term is empty.' }]);
    const long = await refusal(['x'.repeat(500)]);
    expect((long as Error).message).toContain(`longer than ${MAX_TERM_LENGTH} characters`);
    const many = await refusal(Array.from({ length: 10_000 }, (_, i) => `słowo${i}`));
    expect((many as Error).message).toContain('at most 1,000 terms; this one has 10,000');
    for (const broken of ['ta\u0000ni', 'tani\ud83d', '\udc00tani']) {
      expect(((await refusal([broken])) as Error).message).toContain('cannot be stored');
    }
  });

  it('expands nothing for no terms', async () => {
    expect(await inflection.expand([])).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Polish inflection from the Hunspell dictionary of `dictionary-pl` (decision 028), read with
 * `hunspell-reader`. Loading takes a second or two and tens of MB, so it happens once per
 * inflection worker (inflection.worker.ts) and is kept; nothing here runs on the server's thread.
 *
 * A term is one word or a phrase; each word gets its forms, and the phrase keeps them per word
 * position (ExpandedTerm.words), so "rozwiązanie szyte na miarę" also matches "rozwiązania
 * szytego na miarę". How a word's forms are found (in this order; the first that answers wins):
 *  1. the word is a dictionary entry (a lemma, as typed or in lower case): all its entries' forms;
 *  2. the word is a regular form of entries ("tania" of "tani"): those entries' forms;
 *  3. the word looks like a form of a lemma the dictionary lacks ("szyte": the dictionary lists it
 *     without flags and has no "szyty"): the forms of the affix flags that at least twenty lemmas
 *     with the same last three letters share;
 *  4. otherwise the word as it is. A word of four or more letters a-z that is no form of a Polish
 *     lemma (unknown, or listed without flags, as the loanword "deal" is) also gets its English
 *     forms (plural -s/-es/-ies, possessive 's and s').
 * Forms the dictionary makes with the prefix "nie" ("nietani") are left out: they mean the
 * opposite, and a ban on "tani" is not a ban on "nietani".
 */

/** A term and the forms of each of its words (lower case, NFC), in order. */
export type ExpandedTerm = {
  term: string;
  /** Forms per word position; a literal term (see isWordTerm) has one position holding itself. */
  words: string[][];
  /** How each word's forms were found (for the profile page and tests). */
  sources: FormSource[];
};

export type FormSource = 'dictionary' | 'form-of-entry' | 'analogy' | 'english' | 'as-is' | 'literal';

/** One word of a term: letters, marks and digits, with an apostrophe inside ("client's"). */
const WORD = /^[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*$/u;

/** The words of a term, or undefined when it is not made of words only (matched literally). */
export function termWords(term: string): string[] | undefined {
  const words = term.trim().split(/\s+/u);
  return words.every((word) => WORD.test(word)) ? words : undefined;
}

/** The key a word is matched by: NFC, lower case (Polish letters fold as any others). */
export function wordKey(word: string): string {
  return word.normalize('NFC').toLowerCase();
}

type SuffixRule = { flag: string; strip: string; add: string; condition: RegExp };

export type PolishDictionary = {
  expandTerm(term: string): ExpandedTerm;
  /** Entries (.dic lines) of a lemma, for tests. */
  entries(lemma: string): readonly string[];
};

/** Where dictionary-pl keeps its files (its package exports only index.js, which reads them). */
function dictionaryFiles(): { aff: string; dic: string } {
  const dir = path.dirname(createRequire(import.meta.url).resolve('dictionary-pl'));
  return { aff: path.join(dir, 'index.aff'), dic: path.join(dir, 'index.dic') };
}

/** The suffix rules, read from the .aff text for finding a form's lemma (hunspell-reader only expands). */
function suffixRules(affText: string): SuffixRule[] {
  const rules: SuffixRule[] = [];
  for (const line of affText.split('\n')) {
    const parts = line.trim().split(/\s+/u);
    // Rule lines have five fields: SFX flag strip add condition (headers have four).
    if (parts[0] !== 'SFX' || parts.length < 5) continue;
    const [, flag, strip, add, condition] = parts as [string, string, string, string, string];
    rules.push({
      flag,
      strip: strip === '0' ? '' : strip,
      add: add === '0' ? '' : (add.split('/')[0] ?? ''),
      condition: new RegExp(`${condition === '.' ? '' : condition}$`, 'u'),
    });
  }
  return rules;
}

export async function loadPolishDictionary(): Promise<PolishDictionary> {
  const files = dictionaryFiles();
  // hunspell-reader is an ES module only, and from source the worker's modules are loaded through
  // tsx's require (lib/budgeted-worker.ts): a dynamic import loads it either way.
  const { HunspellReader } = await import('hunspell-reader');
  const reader = await HunspellReader.createFromFiles(files.aff, files.dic);
  const rules = suffixRules(readFileSync(files.aff, 'utf8'));
  // Rules by the last letter they add, so finding a form's lemma tries a few dozen, not thousands.
  const rulesByEnd = new Map<string, SuffixRule[]>();
  for (const rule of rules) {
    const end = rule.add.slice(-1);
    const list = rulesByEnd.get(end) ?? [];
    list.push(rule);
    rulesByEnd.set(end, list);
  }
  const flagsOf = (line: string) => (line.includes('/') ? (line.split('/')[1] ?? '') : '');
  const byLemma = new Map<string, string[]>();
  for (const line of reader.dic) {
    const slash = line.indexOf('/');
    const lemma = slash === -1 ? line : line.slice(0, slash);
    const known = byLemma.get(lemma);
    if (known) known.push(line);
    else byLemma.set(lemma, [line]);
  }
  // Lemmas by their last three letters → how many carry each set of flags (for analogy).
  const flagsByEnding = new Map<string, Map<string, number>>();
  for (const [lemma, lines] of byLemma) {
    if (lemma.length < 4 || lemma !== wordKey(lemma)) continue;
    const counts = flagsByEnding.get(lemma.slice(-3)) ?? new Map<string, number>();
    for (const line of lines) {
      const flags = flagsOf(line).replaceAll('b', '');
      if (flags) counts.set(flags, (counts.get(flags) ?? 0) + 1);
    }
    flagsByEnding.set(lemma.slice(-3), counts);
  }

  /** The forms of .dic lines, without those of the negating prefix. */
  function formsOf(lines: readonly string[]): Set<string> {
    const forms = new Set<string>();
    for (const line of lines) {
      const lemma = line.split('/')[0] ?? line;
      forms.add(wordKey(lemma));
      for (const form of reader.aff.applyRulesToDicEntry(line)) {
        const word = wordKey(form.word);
        if (word.startsWith('nie') && !wordKey(lemma).startsWith('nie')) continue;
        forms.add(word);
      }
    }
    return forms;
  }

  function entriesOf(word: string): string[] {
    const lower = wordKey(word);
    return [...(byLemma.get(word) ?? []), ...(lower !== word ? (byLemma.get(lower) ?? []) : [])];
  }

  /** (stem, flag) pairs a suffix rule could have made the word from. */
  function stems(word: string): { stem: string; rule: SuffixRule }[] {
    const found: { stem: string; rule: SuffixRule }[] = [];
    for (const rule of [...(rulesByEnd.get(word.slice(-1)) ?? []), ...(rulesByEnd.get('') ?? [])]) {
      if (!word.endsWith(rule.add) || word.length <= rule.add.length) continue;
      const stem = word.slice(0, word.length - rule.add.length) + rule.strip;
      if (rule.condition.test(stem)) found.push({ stem, rule });
    }
    return found;
  }

  function formsByAnalogy(word: string): Set<string> | undefined {
    let best: { lemma: string; flags: string; support: number } | undefined;
    for (const { stem, rule } of stems(word)) {
      // A form is not shorter than its lemma in the patterns this is for ("szyte" of "szyty");
      // a longer guess turns an English word into a Polish verb ("deal" → "dealić").
      if (stem === word || stem.length < 4 || stem.length > word.length) continue;
      for (const [flags, support] of flagsByEnding.get(stem.slice(-3)) ?? []) {
        if (flags.includes(rule.flag) && support > (best?.support ?? 0))
          best = { lemma: stem, flags, support };
      }
    }
    // A pattern a few lemmas share may be chance; twenty make it the language's.
    if (!best || best.support < 20) return undefined;
    const forms = formsOf([`${best.lemma}/${best.flags}`]);
    return forms.has(word) ? forms : undefined;
  }

  function expandWord(word: string): { forms: string[]; source: FormSource } {
    const key = wordKey(word);
    const entries = entriesOf(word.normalize('NFC'));
    // An entry with affix flags is a lemma whose forms the dictionary knows.
    if (entries.some((line) => flagsOf(line) !== ''))
      return { forms: [...formsOf(entries)], source: 'dictionary' };
    // Unknown, or an entry without flags ("szyte", which the dictionary lists but does not inflect):
    // it may still be a form of a lemma, or look like one.
    const forms = new Set([key]);
    let source: FormSource = entries.length > 0 ? 'dictionary' : 'as-is';
    if (key.length >= 4) {
      const lemmas = stems(key).flatMap(({ stem, rule }) =>
        (byLemma.get(stem) ?? []).filter((line) => flagsOf(line).includes(rule.flag)),
      );
      const more = lemmas.length > 0 ? formsOf(lemmas) : formsByAnalogy(key);
      if (more) {
        for (const form of more) forms.add(form);
        source = lemmas.length > 0 ? 'form-of-entry' : 'analogy';
      }
    }
    // Latin letters only, no Polish lemma found: an English word (or one of the loanwords the
    // dictionary lists without flags, such as "deal").
    if ((source === 'dictionary' || source === 'as-is') && key.length >= 4 && /^[a-z]+$/u.test(key)) {
      for (const form of englishForms(key)) forms.add(form);
      if (source === 'as-is') source = 'english';
    }
    return { forms: [...forms], source };
  }

  return {
    entries: (lemma) => byLemma.get(lemma) ?? [],
    expandTerm(term) {
      const words = termWords(term);
      if (!words) return { term, words: [[wordKey(term.trim())]], sources: ['literal'] };
      const expanded = words.map(expandWord);
      return {
        term,
        words: expanded.map((word) => word.forms),
        sources: expanded.map((word) => word.source),
      };
    },
  };
}

/** An English word's forms: itself, its plural and the possessives (both apostrophes). */
export function englishForms(word: string): string[] {
  const plural = /(?:[sxz]|ch|sh)$/u.test(word)
    ? `${word}es`
    : /[^aeiou]y$/u.test(word)
      ? `${word.slice(0, -1)}ies`
      : `${word}s`;
  return [word, plural, `${word}'s`, `${word}’s`, `${plural}'`, `${plural}’`];
}

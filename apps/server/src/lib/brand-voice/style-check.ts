import { styleRuleIds, type StyleFinding, type StyleRule } from '@gem/contracts/brand-voice';
import { countWords, isStorableText } from '@gem/contracts/text-rules';
import { termWords, wordKey } from './inflection-core';
import { TermLimitError, termIssues } from './term-limits';

/**
 * The brand voice's style check (issue 31): pure logic, no I/O, run by the server after each
 * generation and on demand, the same for every tool. It finds banned terms and words with a
 * preferred replacement in any inflected form (the forms come from inflection.ts, stored with
 * the profile), misspelt service-line names, a missing mandatory disclaimer, text over the
 * channel's limits and the house's typography (Polish quotation marks „…”, no ALL-CAPS words,
 * at most one exclamation mark). Every finding has its place in the text (UTF-16 offsets), its
 * rule, its reason and, where there is one, a fix; apply.ts applies them.
 *
 * Matching: words are runs of letters, marks and digits (an apostrophe inside one, as in
 * "client's"); a term's words match whole words, case-insensitively and with diacritics
 * ("tania" is not "tańia"), each word of a phrase one of its word's forms, in order, with only
 * white space between them. A term that is not made of words ("a.*b", "(x)", "e-commerce") is
 * matched literally, case-insensitively, where it does not start or end inside a word. Rules are
 * compiled once (compileStyleRules) into maps from a word to the terms starting with it, so the
 * text's words are read once however many terms there are.
 */

export type { StyleFinding, StyleRule } from '@gem/contracts/brand-voice';
export const STYLE_RULES: readonly StyleRule[] = styleRuleIds;

/** A term's forms per word position (ExpandedTerm.words); without them a term matches as written. */
export type TermForms = readonly (readonly string[])[];

export type BannedTerm = { term: string; forms?: TermForms; reason: string; replacement?: string };
export type PreferredTerm = {
  term: string;
  reason?: string;
  replaces: readonly { word: string; forms?: TermForms }[];
};

export type StyleRules = {
  banned?: readonly BannedTerm[];
  preferred?: readonly PreferredTerm[];
  /** Service lines and products as they must be written ("Deal Advisory"). */
  names?: readonly string[];
  /** Disclaimers this tool or channel must carry. */
  disclaimers?: readonly string[];
  /** The channel's limits: user-perceived characters and words, as contracts' text-rules count them. */
  limits?: { characters?: number; words?: number };
  typography?: {
    quotes?: boolean;
    allCaps?: boolean;
    exclamation?: boolean;
    /** Acronyms the profile allows in capitals, beside DEFAULT_ACRONYMS. */
    acronyms?: readonly string[];
  };
};

export type StyleFix = NonNullable<StyleFinding['fix']>;

export type StyleCheckResult = {
  findings: StyleFinding[];
  counts: Record<StyleRule, number>;
  /** 100 with nothing found, less by each finding's weight (SCORE_WEIGHTS), never below 0. */
  score: number;
};

/** What a finding of each rule costs the score: what a reader or a lawyer would mind most costs most. */
export const SCORE_WEIGHTS: Readonly<Record<StyleRule, number>> = {
  banned: 10,
  disclaimer: 20,
  limit: 20,
  name: 5,
  preferred: 3,
  'all-caps': 2,
  exclamation: 2,
  quotes: 1,
};

/**
 * Capitals that are no shouting: acronyms common in the firm's texts. A profile adds its own;
 * Roman numerals (II, XXI) are allowed too.
 */
export const DEFAULT_ACRONYMS: readonly string[] = [
  'AI', 'API', 'B2B', 'B2C', 'CEO', 'CFO', 'CIO', 'CIT', 'COO', 'CRM', 'CSR', 'CSRD', 'CTO', 'ERP', 'ESG',
  'EU', 'GDPR', 'GPW', 'HR', 'IPO', 'IT', 'KNF', 'KPI', 'KRS', 'NBP', 'NIP', 'OK', 'PDF', 'PIT', 'PKB', 'PR',
  'REGON', 'ROI', 'RODO', 'SEO', 'UE', 'UK', 'USA', 'VAT', 'ZUS',
]; // prettier-ignore

export class StyleCheckInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StyleCheckInputError';
  }
}

// ---- compiling the rules --------------------------------------------------------------------

type PhraseTerm<T> = { entry: T; base: string; positions: ReadonlySet<string>[] };
type LiteralTerm<T> = { entry: T; needle: string };
/** Terms by the forms of their first word, and those matched literally. */
type Matcher<T> = { byFirst: Map<string, PhraseTerm<T>[]>; literals: LiteralTerm<T>[] };

type BannedEntry = { rule: BannedTerm };
type PreferredEntry = { rule: PreferredTerm; word: string };
type NameEntry = { name: string };

export type CompiledStyleRules = {
  compiled: true;
  banned: Matcher<BannedEntry>;
  preferred: Matcher<PreferredEntry>;
  names: Matcher<NameEntry>;
  disclaimers: { text: string; key: string }[];
  limits: { characters?: number; words?: number };
  typography: { quotes: boolean; allCaps: boolean; exclamation: boolean; acronyms: ReadonlySet<string> };
};

function matcher<T>(): Matcher<T> {
  return { byFirst: new Map(), literals: [] };
}

function addTerm<T>(into: Matcher<T>, term: string, forms: TermForms | undefined, entry: T, key = wordKey) {
  const words = termWords(term);
  if (!words) {
    into.literals.push({ entry, needle: lowerSameLength(term.trim()) });
    return;
  }
  // The stored forms are the term's own only while they have a position for each of its words.
  const perWord = forms && forms.length === words.length ? forms : words.map((word) => [word]);
  const positions = perWord.map(
    (list, i) => new Set([key(words[i] ?? ''), ...list.map((form) => key(form))]),
  );
  const phrase: PhraseTerm<T> = { entry, base: words.map(key).join(' '), positions };
  for (const first of positions[0] ?? []) {
    const list = into.byFirst.get(first);
    if (list) list.push(phrase);
    else into.byFirst.set(first, [phrase]);
  }
}

/** A word folded for names: lower case, without diacritics ("ł" too, which has no decomposition). */
function foldKey(word: string): string {
  // Most words of a text are plain ASCII, with nothing to fold but the case.
  if (/^[\x20-\x7e]*$/u.test(word)) return word.toLowerCase();
  return wordKey(word).normalize('NFD').replace(/\p{M}/gu, '').replaceAll('ł', 'l');
}

/** A disclaimer's key: lower case, without white space, quotation marks and dashes made plain. */
function disclaimerKey(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/["'`«»‘’‚‛“”„‟‹›]/gu, '"')
    .replace(/[\u2010-\u2015\u2212]/gu, '-')
    .replace(/\s+/gu, '');
}

/**
 * Compiles a profile's rules for checkStyle; refuses terms term-limits refuses (TermLimitError,
 * each issue naming the term's place: banned terms, then preferred terms and the words they
 * replace, then names).
 */
export function compileStyleRules(rules: StyleRules): CompiledStyleRules {
  const banned = rules.banned ?? [];
  const preferred = rules.preferred ?? [];
  const names = rules.names ?? [];
  const terms = [
    ...banned.map((rule) => rule.term),
    ...preferred.flatMap((rule) => [rule.term, ...rule.replaces.map((replaced) => replaced.word)]),
    ...names,
  ];
  const issues = termIssues(terms);
  if (issues.length > 0) throw new TermLimitError(issues);
  for (const text of rules.disclaimers ?? []) {
    if (!isStorableText(text) || text.trim() === '') {
      throw new StyleCheckInputError('A disclaimer is empty or contains characters that cannot be stored.');
    }
  }

  const compiled: CompiledStyleRules = {
    compiled: true,
    banned: matcher(),
    preferred: matcher(),
    names: matcher(),
    disclaimers: (rules.disclaimers ?? []).map((text) => ({ text, key: disclaimerKey(text) })),
    limits: { ...rules.limits },
    typography: {
      quotes: rules.typography?.quotes ?? true,
      allCaps: rules.typography?.allCaps ?? true,
      exclamation: rules.typography?.exclamation ?? true,
      // A name's capitals are its spelling ("KPMG Law", "ESG Compass"): no shouting either.
      acronyms: new Set(
        [
          ...DEFAULT_ACRONYMS,
          ...(rules.typography?.acronyms ?? []),
          ...names.flatMap((name) => (termWords(name) ?? []).filter((w) => w === w.toUpperCase())),
        ].map((a) => a.toUpperCase()),
      ),
    },
  };
  for (const rule of banned) addTerm(compiled.banned, rule.term, rule.forms, { rule });
  for (const rule of preferred) {
    for (const replaced of rule.replaces) {
      addTerm(compiled.preferred, replaced.word, replaced.forms, { rule, word: replaced.word });
    }
  }
  for (const name of names) {
    addTerm(compiled.names, name, undefined, { name }, foldKey);
    // The name written as one word ("DealAdvisory") is a variant too.
    const words = termWords(name);
    if (words && words.length > 1) {
      addTerm(compiled.names, words.join(''), undefined, { name }, foldKey);
    }
  }
  return compiled;
}

// ---- reading the text -----------------------------------------------------------------------

type Word = { start: number; end: number; text: string };

const WORDS = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;

function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const match of text.matchAll(WORDS)) {
    words.push({ start: match.index, end: match.index + match[0].length, text: match[0] });
  }
  return words;
}

/** Lower case with every code point keeping its length, so offsets into it are offsets into the text. */
function lowerSameLength(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const char of text) {
    const low = char.toLowerCase();
    out += low.length === char.length ? low : char;
  }
  return out;
}

/** Only white space (or, for names, hyphens and nothing at all) between two words of a phrase. */
function isGap(text: string, from: number, to: number, hyphens: boolean): boolean {
  if (to <= from) return hyphens;
  for (let i = from; i < to; i += 1) {
    const char = text[i] ?? '';
    if (!(/\s/u.test(char) || (hyphens && /[-\u2010\u2011]/u.test(char)))) return false;
  }
  return true;
}

const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{M}\p{N}]/u.test(char);

type Match<T> = { entry: T; start: number; end: number; base: boolean };

/** Every match of a matcher's terms, the longest at each place, none overlapping another. */
function findTerms<T>(
  text: string,
  words: Word[],
  keys: string[],
  into: Matcher<T>,
  hyphens: boolean,
): Match<T>[] {
  const found: Match<T>[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const candidates = into.byFirst.get(keys[i] ?? '');
    if (!candidates) continue;
    let best: { phrase: PhraseTerm<T>; last: number } | undefined;
    for (const phrase of candidates) {
      let j = 1;
      for (; j < phrase.positions.length; j += 1) {
        const word = words[i + j];
        const previous = words[i + j - 1];
        if (!word || !previous || !phrase.positions[j]?.has(keys[i + j] ?? '')) break;
        if (!isGap(text, previous.end, word.start, hyphens)) break;
      }
      if (j === phrase.positions.length && (!best || j - 1 > best.last - i))
        best = { phrase, last: i + j - 1 };
    }
    if (!best) continue;
    const start = words[i]?.start ?? 0;
    const end = words[best.last]?.end ?? start;
    const base = keys.slice(i, best.last + 1).join(' ') === best.phrase.base;
    found.push({ entry: best.phrase.entry, start, end, base });
    i = best.last;
  }
  if (into.literals.length > 0) {
    const lower = lowerSameLength(text);
    // Units already inside a match: a literal found over one is left out, in time linear in the
    // hits (a hostile text of thousands of hits must not compare each with every match).
    const covered = new Uint8Array(text.length);
    for (const match of found) covered.fill(1, match.start, match.end);
    for (const { entry, needle } of into.literals) {
      if (needle === '') continue;
      for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
        const end = at + needle.length;
        // Not inside a word: "(x)" in "a(x)b" is text too, but "ab" is not found in "cabd".
        if (isWordChar(needle[0]) && isWordChar(text[at - 1])) continue;
        if (isWordChar(needle.at(-1)) && isWordChar(text[end])) continue;
        if (covered.subarray(at, end).includes(1)) continue;
        covered.fill(1, at, end);
        found.push({ entry, start: at, end, base: true });
      }
    }
  }
  return found;
}

/** The replacement in the case of what it replaces: "Tani" → "Przystępny"; otherwise as the rule has it. */
export function matchCase(original: string, replacement: string): string {
  const first = [...original].find((char) => /\p{L}/u.test(char));
  const allCaps =
    original === original.toUpperCase() && [...original].filter((c) => /\p{L}/u.test(c)).length > 1;
  if (!first || allCaps || first !== first.toUpperCase() || first === first.toLowerCase()) return replacement;
  return replacement.charAt(0).toUpperCase() + replacement.slice(1);
}

// The words found are Polish: in the house's Polish quotation marks, as the findings list shows them.
const quote = (text: string) => `„${text}”`;

/** The start of text cut to a few words, for a message. */
const short = (text: string) => (text.length > 80 ? `${text.slice(0, 77).trimEnd()}…` : text);

// ---- the check ------------------------------------------------------------------------------

/** Checks a text against a profile's rules (compiled once with compileStyleRules, or as they are). */
export function checkStyle(text: string, rules: StyleRules | CompiledStyleRules): StyleCheckResult {
  if (!isStorableText(text)) {
    throw new StyleCheckInputError(
      'The text contains characters that cannot be stored (a NUL character or a broken emoji).',
    );
  }
  const compiled = 'compiled' in rules ? rules : compileStyleRules(rules);
  const findings: StyleFinding[] = [];
  const add = (finding: Omit<StyleFinding, 'id' | 'text'>) => {
    findings.push({
      id: `${finding.rule}:${finding.start}:${finding.end}`,
      text: text.slice(finding.start, finding.end),
      ...finding,
    });
  };

  const words = wordsOf(text);
  // A text repeats its words: each distinct one is keyed once.
  const keyed = new Map<string, string>();
  const keys = words.map((word) => {
    let key = keyed.get(word.text);
    if (key === undefined) keyed.set(word.text, (key = wordKey(word.text)));
    return key;
  });

  for (const match of findTerms(text, words, keys, compiled.banned, false)) {
    const { rule } = match.entry;
    const found = text.slice(match.start, match.end);
    add({
      rule: 'banned',
      start: match.start,
      end: match.end,
      message: rule.replacement
        ? `${quote(found)} is a banned term; write ${quote(rule.replacement)} instead.`
        : `${quote(found)} is a banned term.`,
      reason: rule.reason,
      // An inflected form needs its replacement inflected too, which only the writer can do well.
      ...(rule.replacement
        ? { fix: { replacement: matchCase(found, rule.replacement), safe: match.base } }
        : {}),
    });
  }

  for (const match of findTerms(text, words, keys, compiled.preferred, false)) {
    const { rule } = match.entry;
    const found = text.slice(match.start, match.end);
    add({
      rule: 'preferred',
      start: match.start,
      end: match.end,
      message: `Write ${quote(rule.term)} rather than ${quote(found)}.`,
      reason: rule.reason ?? `The house prefers ${quote(rule.term)}.`,
      fix: { replacement: matchCase(found, rule.term), safe: match.base },
    });
  }

  const foldedKeys = new Map<string, string>();
  const folded =
    compiled.names.byFirst.size > 0 || compiled.names.literals.length > 0
      ? words.map((word) => {
          let key = foldedKeys.get(word.text);
          if (key === undefined) foldedKeys.set(word.text, (key = foldKey(word.text)));
          return key;
        })
      : [];
  for (const match of findTerms(text, words, folded, compiled.names, true)) {
    const { name } = match.entry;
    if (text.slice(match.start, match.end) === name) continue;
    add({
      rule: 'name',
      start: match.start,
      end: match.end,
      message: `Write the name as ${quote(name)}.`,
      reason: 'Service lines and products are written exactly as they are named.',
      fix: { replacement: name, safe: true },
    });
  }

  if (compiled.disclaimers.length > 0) {
    const key = disclaimerKey(text);
    for (const disclaimer of compiled.disclaimers) {
      if (key.includes(disclaimer.key)) continue;
      const separator = text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
      add({
        rule: 'disclaimer',
        start: text.length,
        end: text.length,
        message: `The required disclaimer is missing: ${quote(short(disclaimer.text))}`,
        reason: 'This tool or channel must carry the disclaimer.',
        fix: { replacement: `${separator}${disclaimer.text}`, safe: true },
      });
    }
  }

  checkLimits(text, compiled.limits, add);
  checkTypography(text, words, compiled.typography, add);

  findings.sort((a, b) => a.start - b.start || a.end - b.end || a.rule.localeCompare(b.rule));
  const counts = Object.fromEntries(STYLE_RULES.map((rule) => [rule, 0])) as Record<StyleRule, number>;
  let cost = 0;
  for (const finding of findings) {
    counts[finding.rule] += 1;
    cost += SCORE_WEIGHTS[finding.rule];
  }
  return { findings, counts, score: Math.max(0, 100 - cost) };
}

type Add = (finding: Omit<StyleFinding, 'id' | 'text'>) => void;

let graphemes: Intl.Segmenter | undefined;

/**
 * How many grapheme clusters the text has, as contracts' countCharacters counts them, and the
 * UTF-16 offset where the one after the first `limit` starts, in linear time. V8's segmenter
 * slows down with the length of the string it walks (a 16,000-character text took 270 ms, a
 * 75,000-character one seconds), so the text is read in pieces of about 500 units, cut between
 * two printable characters of ASCII or Latin-1 and Latin Extended-A/B (Polish letters included):
 * a place where a cluster boundary always falls (no rule joins two of them; CR LF is not
 * printable). A piece of such characters only is one cluster a unit; any other piece is
 * segmented. A text with no such pair at all (a wall of emoji) is segmented whole.
 */
function graphemesPast(text: string, limit: number): { count: number; offset: number } {
  graphemes ??= new Intl.Segmenter('pl', { granularity: 'grapheme' });
  const plain = (unit: number) => (unit >= 0x20 && unit <= 0x7e) || (unit >= 0xc0 && unit <= 0x24f);
  let count = 0;
  let offset = text.length;
  let from = 0;
  while (from < text.length) {
    let to = Math.min(text.length, from + 500);
    while (to < text.length && !(plain(text.charCodeAt(to - 1)) && plain(text.charCodeAt(to)))) to += 1;
    const piece = text.slice(from, to);
    if (/^[\t\n\x20-\x7e\xa0-\u024f]*$/u.test(piece)) {
      if (offset === text.length && count + piece.length > limit) offset = from + (limit - count);
      count += piece.length;
    } else {
      for (const { index } of graphemes.segment(piece)) {
        if (count === limit) offset = from + index;
        count += 1;
      }
    }
    from = to;
  }
  return { count, offset };
}

function checkLimits(text: string, limits: CompiledStyleRules['limits'], add: Add) {
  if (limits.characters !== undefined && text.length > limits.characters) {
    const { count, offset } = graphemesPast(text, limits.characters);
    if (count > limits.characters) {
      add({
        rule: 'limit',
        start: offset,
        end: text.length,
        message: `The text has ${count} characters; this channel allows ${limits.characters}.`,
        reason: 'The channel cuts or refuses longer text.',
      });
    }
  }
  if (limits.words !== undefined) {
    const count = countWords(text);
    if (count > limits.words) {
      // The same words countWords counts: runs of non-space with a letter or digit, no hashtags.
      let seen = 0;
      let start = text.length;
      for (const match of text.matchAll(/\S+/gu)) {
        if (match[0].startsWith('#') || !/[\p{L}\p{N}]/u.test(match[0])) continue;
        if (seen === limits.words) {
          start = match.index;
          break;
        }
        seen += 1;
      }
      add({
        rule: 'limit',
        start,
        end: text.length,
        message: `The text has ${count} words; this channel allows ${limits.words}.`,
        reason: 'The channel cuts or refuses longer text.',
      });
    }
  }
}

const ROMAN = /^[IVXLCDM]+$/u;

function checkTypography(
  text: string,
  words: Word[],
  typography: CompiledStyleRules['typography'],
  add: Add,
) {
  if (typography.quotes) {
    // Quotation marks pair up in order: an opening one must be „, a closing one ”. A straight or
    // English mark is fixed safely only when its pair is found; a lone one may be an inch sign.
    let open: { at: number; wrong: boolean } | undefined;
    const pending: Omit<StyleFinding, 'id' | 'text'>[] = [];
    const mark = (at: number, opening: boolean) =>
      pending.push({
        rule: 'quotes',
        start: at,
        end: at + 1,
        message: opening
          ? 'Open a quotation with the Polish mark „.'
          : 'Close a quotation with the Polish mark ”.',
        reason: 'The house writes Polish quotation marks „…”.',
        fix: { replacement: opening ? '„' : '”', safe: false },
      });
    for (let at = 0; at < text.length; at += 1) {
      const char = text[at];
      if (char !== '"' && char !== '“' && char !== '”' && char !== '„') continue;
      if (!open) {
        open = { at, wrong: char !== '„' };
        if (open.wrong) mark(at, true);
      } else {
        if (char === '„') {
          // A second opening before a close: the first one was never closed.
          open = { at, wrong: false };
          continue;
        }
        if (char !== '”') mark(at, false);
        for (const finding of pending) {
          if (finding.fix && (finding.start === open.at || finding.start === at)) finding.fix.safe = true;
        }
        open = undefined;
      }
    }
    for (const finding of pending) add(finding);
  }

  if (typography.allCaps) {
    for (const word of words) {
      // Most words have a lower-case letter: that test first, the letters counted only for the rest.
      if (word.text !== word.text.toUpperCase() || word.text === word.text.toLowerCase()) continue;
      let letters = 0;
      for (const char of word.text) if (/\p{L}/u.test(char)) letters += 1;
      if (letters < 2) continue;
      if (typography.acronyms.has(word.text) || ROMAN.test(word.text)) continue;
      // The character before the word, white space skipped (looked up, not sliced: a text of
      // capitals would otherwise cost its length squared).
      let back = word.start - 1;
      while (back >= 0 && /\s/u.test(text[back] ?? '')) back -= 1;
      const sentenceStart = back < 0 || /[.!?…]/u.test(text[back] ?? '');
      const lower = word.text.toLowerCase();
      add({
        rule: 'all-caps',
        start: word.start,
        end: word.end,
        message: `${quote(word.text)} is written in capitals.`,
        reason: 'The house writes no words in capitals, except acronyms.',
        // It may be an acronym the profile does not list yet.
        fix: {
          replacement: sentenceStart ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower,
          safe: false,
        },
      });
    }
  }

  if (typography.exclamation) {
    let first = true;
    for (let at = text.indexOf('!'); at !== -1; at = text.indexOf('!', at + 1)) {
      if (first) {
        first = false;
        continue;
      }
      const repeated = text[at - 1] === '!';
      add({
        rule: 'exclamation',
        start: at,
        end: at + 1,
        message: repeated
          ? 'One exclamation mark is enough.'
          : 'Use at most one exclamation mark in the text.',
        reason: 'The house allows at most one exclamation mark in a text.',
        fix: { replacement: repeated ? '' : '.', safe: true },
      });
    }
  }
}

import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Search text for GEM's full-text indexes (market feed items, the competitor index), so every
 * index and every query agree. Both sides (stored vectors and queries) are folded to plain
 * lower-case ASCII, so "Żabka", "zabka" and "ŻABKA" meet. PostgreSQL's `unaccent` extension
 * would do this in SQL, but it is not available on every PostgreSQL (nor in PGlite).
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ł/gi, 'l')
    .replace(/ø/gi, 'o')
    .replace(/ß/g, 'ss')
    .toLowerCase();
}

const MAX_TERMS = 12;

/**
 * A to_tsquery string from what someone typed: every word must match, each as a prefix
 * ("bank" finds "banks" and "banking"). Only letters and digits pass, so the text cannot
 * inject tsquery syntax. Null when nothing searchable is left.
 */
export function toPrefixQuery(q: string): string | null {
  const terms =
    fold(q)
      .match(/[a-z0-9]+/g)
      ?.slice(0, MAX_TERMS) ?? [];
  return terms.length > 0 ? terms.map((t) => `${t}:*`).join(' & ') : null;
}

/** Text for a search vector by weight: A ranks highest (a title), then B (the body), C, D. */
export type WeightedText = { A: string; B?: string; C?: string; D?: string };

const WEIGHTS = ['A', 'B', 'C', 'D'] as const;

/** Each weight as setweight's literal: fixed text of the statement, no parameter and no input. */
const WEIGHT_LITERALS: Record<(typeof WEIGHTS)[number], SQL> = {
  A: sql`'A'`,
  B: sql`'B'`,
  C: sql`'C'`,
  D: sql`'D'`,
};

/** The tsvector of the folded texts, each part with its weight, for a `tsvector` column. */
export function searchVector(parts: WeightedText): SQL {
  return sql.join(
    WEIGHTS.flatMap((weight) => {
      const text = parts[weight];
      return text === undefined
        ? []
        : [sql`setweight(to_tsvector('english', ${fold(text)}), ${WEIGHT_LITERALS[weight]})`];
    }),
    sql` || `,
  );
}

/** The condition "this vector matches what someone typed", or undefined when nothing searchable is left. */
export function matchesSearch(vector: AnyPgColumn | SQL, q: string): SQL | undefined {
  const tsquery = toPrefixQuery(q);
  return tsquery ? sql`${vector} @@ to_tsquery('english', ${tsquery})` : undefined;
}

/**
 * A query as people type it into a web search engine (issue 13): every word must match, each
 * also as the start of a longer word and, for words of five letters or more, without a Polish
 * inflectional ending ("transformacja" finds "transformacji"; PostgreSQL ships no Polish
 * stemmer); `"quoted words"` must appear together in that order; `-word` or `-"a phrase"`
 * excludes; `OR` (or `|`) between two of them accepts either. Words joined by punctuation
 * ("covid-19", "e-commerce") are a phrase. Everything is accent-folded, and only [a-z0-9]
 * words reach PostgreSQL, so typed text cannot inject tsquery syntax.
 */
export type WebQueryTerm = {
  /** Folded words; more than one is a phrase. */
  words: string[];
  /** Quoted or joined by punctuation: the words as typed, next to each other. */
  phrase: boolean;
};

export type WebQuery = {
  /** Every group must match; a group of several terms matches when any of them does (OR). */
  groups: WebQueryTerm[][];
  /** No term here may match. */
  excluded: WebQueryTerm[];
};

/** The most words a query keeps (in order): more adds nothing but cost. */
export const WEB_QUERY_MAX_WORDS = 12;

// Longest first. Folded forms: "ów" is "ow", "ą" is "a".
const POLISH_ENDINGS = [
  'owych',
  'owymi',
  'owego',
  'owemu',
  'owej',
  'iach',
  'iami',
  'ach',
  'ami',
  'ych',
  'ymi',
  'ich',
  'imi',
  'ego',
  'emu',
  'owa',
  'owe',
  'owy',
  'owi',
  'ow',
  'om',
  'em',
  'ie',
  'ia',
  'iu',
  'a',
  'e',
  'i',
  'o',
  'u',
  'y',
];
const MIN_STEM = 4;

/**
 * The prefix a folded word is searched by: without one Polish inflectional ending when at
 * least four letters remain ("podatkowych" → "podatk", "firmy" → "firm"; "dane" stays).
 */
export function prefixStem(word: string): string {
  if (word.length <= MIN_STEM || /\d/.test(word)) return word;
  for (const ending of POLISH_ENDINGS) {
    if (word.endsWith(ending) && word.length - ending.length >= MIN_STEM) {
      return word.slice(0, -ending.length);
    }
  }
  return word;
}

const wordsOf = (text: string) => fold(text).match(/[a-z0-9]+/g) ?? [];

type Token = { kind: 'or' } | { kind: 'term'; excluded: boolean; quoted: boolean; text: string };

/** Splits on spaces, keeping "quoted text" (closed or not) together. Linear, no regex on the input. */
function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const isSpace = (c: string) => c.trim() === '';
  while (i < q.length) {
    if (isSpace(q[i]!)) {
      i += 1;
      continue;
    }
    let excluded = false;
    if (q[i] === '-' && i + 1 < q.length && !isSpace(q[i + 1]!)) {
      excluded = true;
      i += 1;
    } else if (q[i] === '+') {
      i += 1;
    }
    if (q[i] === '"') {
      const end = q.indexOf('"', i + 1);
      const stop = end === -1 ? q.length : end;
      tokens.push({ kind: 'term', excluded, quoted: true, text: q.slice(i + 1, stop) });
      i = stop + 1;
      continue;
    }
    let end = i;
    while (end < q.length && !isSpace(q[end]!) && q[end] !== '"') end += 1;
    const text = q.slice(i, end);
    i = end;
    if (!excluded && (text === 'OR' || text === '|' || text === '||')) tokens.push({ kind: 'or' });
    else tokens.push({ kind: 'term', excluded, quoted: false, text });
  }
  return tokens;
}

/** Reads a typed query (see WebQuery). Terms with no letter or digit are dropped. */
export function parseWebQuery(q: string): WebQuery {
  const groups: WebQueryTerm[][] = [];
  const excluded: WebQueryTerm[] = [];
  let budget = WEB_QUERY_MAX_WORDS;
  let joinNext = false;
  for (const token of tokenize(q)) {
    if (token.kind === 'or') {
      joinNext = groups.length > 0;
      continue;
    }
    const words = wordsOf(token.text).slice(0, budget);
    if (words.length === 0) continue;
    budget -= words.length;
    const term = { words, phrase: token.quoted || words.length > 1 };
    if (token.excluded) {
      excluded.push(term);
    } else if (joinNext) {
      groups[groups.length - 1]!.push(term);
    } else {
      groups.push([term]);
    }
    joinNext = false;
    if (budget === 0) break;
  }
  return { groups, excluded };
}

function termToTsquery(term: WebQueryTerm): string {
  if (!term.phrase) return `${prefixStem(term.words[0]!)}:*`;
  // A phrase's words are exact, its last one also as a prefix ("covid-19" finds "covid-19s").
  const words = term.words.map((w, i) => (i === term.words.length - 1 ? `${w}:*` : w));
  return words.length === 1 ? words[0]! : `(${words.join(' <-> ')})`;
}

/**
 * The to_tsquery('english', …) text of a web query, or null when it has nothing that must
 * match (no words, or only excluded ones). Built from [a-z0-9] words and GEM's own operators.
 */
export function webTsquery(query: WebQuery): string | null {
  if (query.groups.length === 0) return null;
  const all = query.groups.map((group) => {
    const alternatives = group.map(termToTsquery);
    return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' | ')})`;
  });
  const none = query.excluded.map((term) => `!${termToTsquery(term)}`);
  return [...all, ...none].join(' & ');
}

/** English plural and verb endings, for marking "service" when "services" was searched. */
const ENGLISH_ENDINGS = ['ies', 'ing', 'es', 'ed', 's'];

/**
 * Whether a folded word in a result is one the query looked for (for marking snippets): it
 * starts with a searched word's prefix, or with that word without an English ending.
 */
export function webQueryMarker(query: WebQuery): (foldedWord: string) => boolean {
  const prefixes = new Set<string>();
  for (const group of query.groups) {
    for (const term of group) {
      for (const word of term.words) {
        prefixes.add(term.phrase ? word : prefixStem(word));
        const ending = ENGLISH_ENDINGS.find((e) => word.endsWith(e) && word.length - e.length >= MIN_STEM);
        if (ending) prefixes.add(word.slice(0, -ending.length));
      }
    }
  }
  const list = [...prefixes];
  return (foldedWord) => list.some((prefix) => foldedWord.startsWith(prefix));
}

/** The condition "this vector matches the web query"; undefined when nothing must match. */
export function matchesWebQuery(vector: AnyPgColumn | SQL, query: WebQuery): SQL | undefined {
  const tsquery = webTsquery(query);
  return tsquery ? sql`${vector} @@ to_tsquery('english', ${tsquery})` : undefined;
}

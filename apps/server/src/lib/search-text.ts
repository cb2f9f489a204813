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

/** The tsvector of the folded texts, each part with its weight, for a `tsvector` column. */
export function searchVector(parts: WeightedText): SQL {
  return sql.join(
    WEIGHTS.flatMap((weight) => {
      const text = parts[weight];
      // The weight is one of four letters, never input: safe to write into the statement.
      return text === undefined
        ? []
        : [sql`setweight(to_tsvector('english', ${fold(text)}), ${sql.raw(`'${weight}'`)})`];
    }),
    sql` || `,
  );
}

/** The condition "this vector matches what someone typed", or undefined when nothing searchable is left. */
export function matchesSearch(vector: AnyPgColumn | SQL, q: string): SQL | undefined {
  const tsquery = toPrefixQuery(q);
  return tsquery ? sql`${vector} @@ to_tsquery('english', ${tsquery})` : undefined;
}

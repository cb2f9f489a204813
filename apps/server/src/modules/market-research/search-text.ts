/**
 * Full-text search folds text to plain lower-case ASCII on both sides (stored vectors and
 * queries), so "Żabka", "zabka" and "ŻABKA" meet. PostgreSQL's `unaccent` extension would do
 * this in SQL, but it is not available on every PostgreSQL (nor in PGlite).
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[łŁ]/g, 'l')
    .replace(/[øØ]/g, 'o')
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

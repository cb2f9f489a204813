import { customType } from 'drizzle-orm/pg-core';

/** Column types drizzle has no builder for, shared by every module's tables. */

/** A full-text search vector; lib/search-text.ts builds its values and the queries against it. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Text compared byte by byte (the "C" collation), so that every string starting with a prefix
 * sorts between the prefix and the prefix with its last character raised: a btree range.
 */
export const textC = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

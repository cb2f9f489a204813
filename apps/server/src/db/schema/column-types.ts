import { customType } from 'drizzle-orm/pg-core';

/** Column types drizzle has no builder for, shared by every module's tables. */

/** A full-text search vector; lib/search-text.ts builds its values and the queries against it. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

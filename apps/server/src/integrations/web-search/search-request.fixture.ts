import { parseWebQuery } from '../../lib/search-text';
import type { WebSearchRequest } from './web-search';

/** A search request for the index's tests: the query parsed, the first page, by date, no window. */
export const searchRequest = (
  query: string,
  base: Pick<WebSearchRequest, 'num' | 'now' | 'competitors'>,
  fields: Partial<WebSearchRequest> = {},
): WebSearchRequest => ({
  text: query,
  query: parseWebQuery(query),
  start: 1,
  since: null,
  windowDays: null,
  sort: 'date',
  ...base,
  ...fields,
});

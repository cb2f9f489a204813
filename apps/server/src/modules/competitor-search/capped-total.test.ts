import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/test-config';
import type { Db } from '../../db/client';
import type { WebSearch, WebSearchPage } from '../../integrations/web-search/web-search';
import { AppError } from '../../lib/app-error';
import { createCompetitorSearchService, NOT_COUNTED } from './competitor-search.service';

// A search service that stopped counting (GEM's index stops at 1,000 matches: index-search.ts)
// says so in formattedTotalResults ("1,000+") and totalCapped; the page shows "About 1,000+
// results" and, for want of the weekly counts, why there is no chart.

const serviceAnswering = (page: WebSearchPage) => {
  const search: WebSearch = { provider: 'index', search: async () => page };
  // search() reads nothing from the database itself.
  return createCompetitorSearchService({ db: {} as Db, search, competitors: testConfig().competitors });
};

describe('the total of a search whose count stopped', () => {
  it('is the cap with a plus in formattedTotalResults, the cap in totalResults, and marked', async () => {
    const capped = await serviceAnswering({
      items: [],
      totalResults: 1_000,
      totalCapped: true,
      nextStart: 11,
    }).search({ query: 'rynek', num: 10, start: 1, sort: 'date' });
    expect(capped.searchInformation).toMatchObject({
      totalResults: 1_000,
      formattedTotalResults: '1,000+',
      totalCapped: true,
    });
    expect(capped.queries.nextPage).toEqual([{ startIndex: 11 }]);
  });

  it('is the exact count, without a plus, when every match was counted', async () => {
    const exact = await serviceAnswering({ items: [], totalResults: 999, nextStart: null }).search({
      query: 'rynek',
      num: 10,
      start: 1,
      sort: 'date',
    });
    expect(exact.searchInformation).toEqual({
      totalResults: 999,
      formattedTotalResults: '999',
      formattedSearchTime: expect.any(String),
    });
  });
});

describe('the weekly counts of a search service that cannot count them', () => {
  it('are a 404 that says so (the Brave adapter)', async () => {
    const service = serviceAnswering({ items: [], totalResults: 0, nextStart: null });
    const failure = service.weeklyCounts({ query: 'rynek' });
    await expect(failure).rejects.toBeInstanceOf(AppError);
    await expect(failure).rejects.toMatchObject({ statusCode: 404, message: NOT_COUNTED });
  });
});

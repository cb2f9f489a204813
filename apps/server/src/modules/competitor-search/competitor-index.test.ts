import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/test-database';
import type { Database } from '../../db/client';
import { competitorCrawls, competitorPages } from '../../db/schema/competitor-search';
import {
  cleanIndexText,
  recordCrawl,
  removeCompetitorPages,
  upsertCompetitorPage,
  upsertCompetitorPages,
} from './competitor-index';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const rows = () =>
  database.db
    .select({ url: competitorPages.url, title: competitorPages.title, sample: competitorPages.sample })
    .from(competitorPages)
    .orderBy(competitorPages.url);

describe('the competitor index writer', () => {
  it('cleans text as feed text is cleaned: no NUL, half surrogate pair or bidi control', () => {
    expect(cleanIndexText('a\u0000b \ud83d c\u202e d\u0007\n\n e', 100)).toBe('a\ufffdb \ufffd c d e');
    expect(cleanIndexText('ab😀', 3)).toBe('ab');
  });

  it('adds a page, updates it by URL, and finds it by its folded words', async () => {
    const page = {
      competitorKey: 'deloitte',
      url: 'https://www.deloitte.com/pl/pl/a.html',
      title: 'Raport o Żabce',
      description: 'Opis',
      bodyText: 'Treść',
      publishedAt: new Date('2026-01-02T00:00:00Z'),
      etag: '"1"',
    };
    await upsertCompetitorPage(database.db, page);
    await upsertCompetitorPage(database.db, { ...page, title: 'Raport o Żabce, wydanie 2\u202e' });
    expect(await rows()).toEqual([{ url: page.url, title: 'Raport o Żabce, wydanie 2', sample: false }]);
    const found = await database.db
      .select({ url: competitorPages.url })
      .from(competitorPages)
      .where(sql`${competitorPages.searchVector} @@ to_tsquery('english', 'zabce')`);
    expect(found).toEqual([{ url: page.url }]);
    await removeCompetitorPages(database.db, [page.url]);
    expect(await rows()).toEqual([]);
  });

  it("removes a competitor's sample pages once real pages of that competitor are stored", async () => {
    const sample = (key: string, n: number) => ({
      competitorKey: key,
      url: `https://${key}.example/pl/${n}`,
      title: `Sample ${n}`,
      description: '',
      bodyText: '',
      publishedAt: null,
      sample: true,
    });
    await upsertCompetitorPages(database.db, [sample('ey', 1), sample('ey', 2), sample('kpmg', 1)]);
    await upsertCompetitorPages(database.db, [
      {
        competitorKey: 'ey',
        url: 'https://www.ey.com/pl_pl/real',
        title: 'Real',
        description: '',
        bodyText: '',
        publishedAt: null,
      },
    ]);
    expect(await rows()).toEqual([
      { url: 'https://kpmg.example/pl/1', title: 'Sample 1', sample: true },
      { url: 'https://www.ey.com/pl_pl/real', title: 'Real', sample: false },
    ]);
  });

  it("records a crawl's start and end", async () => {
    const started = new Date('2026-03-01T10:00:00Z');
    const finished = new Date('2026-03-01T10:05:00Z');
    await recordCrawl(database.db, 'pwc', {
      startedAt: started,
      finishedAt: finished,
      error: null,
      pages: 12,
    });
    const next = new Date('2026-03-01T16:00:00Z');
    await recordCrawl(database.db, 'pwc', {
      startedAt: next,
      finishedAt: null,
      error: 'robots.txt: 503',
      pages: 0,
    });
    const [row] = await database.db
      .select()
      .from(competitorCrawls)
      .where(eq(competitorCrawls.competitorKey, 'pwc'));
    expect(row).toEqual({
      competitorKey: 'pwc',
      lastStartedAt: next,
      lastFinishedAt: finished,
      lastError: 'robots.txt: 503',
      pagesLastRound: 0,
    });
  });
});

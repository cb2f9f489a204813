import { count, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { Database } from '../../db/client';
import { competitorPages } from '../../db/schema/competitor-search';
import { createIndexSearch } from '../../integrations/web-search/index-search';
import { createScheduler } from '../../lib/scheduler';
import { upsertCompetitorPage } from './competitor-index';
import { createCompetitorSearchService } from './competitor-search.service';
import { loadSampleCorpus, samplePages, scheduleSampleCorpus } from './sample-corpus';

let database: Database;
const config = testConfig();
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const samples = async () =>
  (await database.db.select({ n: count() }).from(competitorPages).where(eq(competitorPages.sample, true)))[0]!
    .n;

describe('the bundled sample corpus', () => {
  it('is a few hundred fictional pages on .example hosts, for every competitor, over the last six months', () => {
    const now = new Date('2026-05-01T00:00:00Z');
    const pages = samplePages(config.competitors.list, now);
    expect(pages.length).toBeGreaterThanOrEqual(200);
    expect(new Set(pages.map((p) => p.competitorKey))).toEqual(
      new Set(config.competitors.list.map((c) => c.key)),
    );
    for (const p of pages) {
      expect(new URL(p.url).hostname).toMatch(/\.example$/);
      expect(p.sample).toBe(true);
      const age = now.getTime() - p.publishedAt!.getTime();
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThanOrEqual(183 * DAY);
    }
    expect(new Set(pages.map((p) => p.url)).size).toBe(pages.length);
    expect(pages.some((p) => /[ąćęłńóśźż]/i.test(p.title))).toBe(true);
    // Only the configured competitors' pages.
    expect(
      samplePages(config.competitors.list.slice(0, 1), now).every((p) => p.competitorKey === 'deloitte'),
    ).toBe(true);
  });

  it('loads through the scheduler while crawling is off, found and marked as samples', async () => {
    const scheduler = createScheduler({ db: database.db, log: pino({ level: 'silent' }) });
    scheduleSampleCorpus({
      db: database.db,
      competitors: config.competitors.list,
      crawl: false,
      scheduler,
      log: pino({ level: 'silent' }),
    });
    expect(await scheduler.runNow('competitor-search.sample-corpus')).toBe(true);
    await scheduler.stop();
    const loaded = await samples();
    expect(loaded).toBe(samplePages(config.competitors.list, new Date()).length);

    const service = createCompetitorSearchService({
      db: database.db,
      search: createIndexSearch({ db: database.db }),
      competitors: config.competitors,
    });
    const r = await service.search({
      query: 'transformacja cyfrowa',
      num: 10,
      start: 1,
      sort: 'date',
      dateRestrict: 'd182',
    });
    expect(r.items.length).toBeGreaterThan(0);
    expect(r.items.every((i) => i.sample && i.displayLink.endsWith('.example'))).toBe(true);
    expect((await service.listCompetitors()).sample).toBe(true);

    // Loading again re-dates the same pages, adding none.
    await loadSampleCorpus({
      db: database.db,
      competitors: config.competitors.list,
      now: new Date(Date.now() + DAY),
    });
    expect(await samples()).toBe(loaded);
  });

  it('stops between batches when its signal aborts (an instance stopping), and the next run writes the rest', async () => {
    await database.db.delete(competitorPages);
    const stopping = new AbortController();
    stopping.abort(new Error('stopping'));
    await expect(
      loadSampleCorpus({ db: database.db, competitors: config.competitors.list, signal: stopping.signal }),
    ).rejects.toThrow('stopping');
    expect(await samples()).toBe(0);
    const all = await loadSampleCorpus({ db: database.db, competitors: config.competitors.list });
    expect(await samples()).toBe(all);
  });

  it('gives way to real pages: a competitor’s samples go when its first real page is stored', async () => {
    await upsertCompetitorPage(database.db, {
      competitorKey: 'kpmg',
      url: 'https://kpmg.com/pl/pl/real.html',
      title: 'Prawdziwa strona',
      description: '',
      bodyText: '',
      publishedAt: new Date(),
    });
    const left = await database.db
      .select({ key: competitorPages.competitorKey })
      .from(competitorPages)
      .where(eq(competitorPages.sample, true));
    expect(left.some((r) => r.key === 'kpmg')).toBe(false);
    expect(left.length).toBeGreaterThan(0);
    // With a real page indexed, the samples are not loaded again.
    expect(await loadSampleCorpus({ db: database.db, competitors: config.competitors.list })).toBe(0);
  });

  it('is not scheduled while crawling is on', async () => {
    const scheduler = createScheduler({ db: database.db, log: pino({ level: 'silent' }) });
    scheduleSampleCorpus({
      db: database.db,
      competitors: config.competitors.list,
      crawl: true,
      scheduler,
      log: pino({ level: 'silent' }),
    });
    await expect(scheduler.runNow('competitor-search.sample-corpus')).rejects.toThrow();
    await scheduler.stop();
  });
});

import { fictionalSite, startSiteHost, type SiteHost } from '@gem/test-servers/site-host';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/test-app';
import { testConfig } from '../../../../test/test-config';
import { createTestDatabase } from '../../../../test/test-database';
import type { Database } from '../../../db/client';
import { CRAWLER_TOKEN } from './robots';

let site: SiteHost;
let database: Database;
beforeAll(async () => {
  site = await startSiteHost();
  database = await createTestDatabase();
});
afterAll(async () => {
  await site?.close();
  await database?.close();
});

it('a listening server crawls at start when GEM_COMPETITORS_CRAWL is on', async () => {
  site.load(fictionalSite(site.origin, '/pl/', 1));
  const base = testConfig();
  const config = testConfig({
    competitors: {
      ...base.competitors,
      list: [{ key: 'fikcja', name: 'Fikcyjna Firma', site: site.url('/pl/') }],
      crawl: true,
      crawlDelayMs: 0,
      allowPrivateHosts: true,
    },
  });
  const app = await buildTestApp({ config, database, background: true });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const robots = await site.waitForRequest('/robots.txt');
    expect(robots.headers['user-agent']).toContain(CRAWLER_TOKEN);
  } finally {
    // Stops the scheduler: the round in flight is cancelled and winds down.
    await app.close();
  }
});

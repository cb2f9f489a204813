import {
  competitorSearchPaths,
  competitorSearchResponseSchema,
  competitorsResponseSchema,
  competitorWeeklyCountsResponseSchema,
  type CompetitorSearchRequest,
  type CompetitorSearchResponse,
} from '@gem/contracts/competitor-search';
import { errorResponseSchema } from '@gem/contracts/errors';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { createIndexSearch } from '../../integrations/web-search/index-search';
import { recordCrawl, upsertCompetitorPages, type IndexedPage } from './competitor-index';
import {
  createCompetitorSearchService,
  NO_WORDS,
  ONLY_EXCLUDED,
  UNKNOWN_SITE,
} from './competitor-search.service';

let issuer: OidcIssuer;
let database: Database;
let app: App;
let token: string;
let config: Config;

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

const page = (competitorKey: string, slug: string, fields: Partial<IndexedPage> = {}): IndexedPage => {
  const site = config.competitors.list.find((c) => c.key === competitorKey)!.site;
  return {
    competitorKey,
    url: `${site}${slug}`,
    title: `Strona ${slug}`,
    description: '',
    bodyText: '',
    publishedAt: daysAgo(1),
    ...fields,
  };
};

beforeAll(async () => {
  issuer = await startOidcIssuer();
  database = await createTestDatabase();
  const base = testConfig();
  config = testConfig({
    access: { ...base.access, allowedDomains: ['competitors.example'] },
    auth: externalAuth(issuer.issuer),
  });
  app = await buildTestApp({ config, database });
  token = await issuer.sign(accessClaims('analyst', 'competitors.example'));

  // 23 pages about cloud at PwC, one a day; Deloitte and EY pages for syntax, accents, XSS.
  await upsertCompetitorPages(database.db, [
    ...Array.from({ length: 23 }, (_, n) =>
      page('pwc', `chmura-${n}`, {
        title: `Chmura obliczeniowa, część ${n}`,
        bodyText: `Tekst ${n} o migracji do chmury.`,
        publishedAt: daysAgo(n + 0.5),
      }),
    ),
    page('deloitte', 'zabka', {
      title: 'Żabka rozwija sieć sklepów',
      description: 'Sieć convenience otwiera nowe sklepy.',
      bodyText:
        'Analiza rynku handlu detalicznego. Żabka i inne sieci zwiększają sprzedaż w małych miastach.',
      publishedAt: daysAgo(3),
    }),
    page('deloitte', 'raport-roczny', {
      title: 'Raport roczny o rynku',
      bodyText: 'Nasz raport roczny opisuje cyfrową transformację banków.',
      publishedAt: daysAgo(4),
    }),
    page('deloitte', 'roczny-raport', {
      title: 'Przegląd',
      bodyText: 'Roczny przegląd: raport o podatkach i transformacji energetycznej.',
      publishedAt: daysAgo(5),
    }),
    page('ey', 'zarzadzanie', {
      title: 'Zarzadzanie ryzykiem bez polskich znakow',
      bodyText: 'Zarzadzanie ryzykiem w bankach i ubezpieczeniach.',
      publishedAt: daysAgo(6),
    }),
    page('ey', 'greenwashing', {
      title: 'ESG i greenwashing',
      bodyText: 'Raportowanie ESG a ryzyko greenwashingu.',
      publishedAt: daysAgo(7),
    }),
    page('ey', 'esg', {
      title: 'Raportowanie ESG w praktyce',
      bodyText: 'Dyrektywa CSRD zmienia raportowanie ESG.',
      publishedAt: null,
    }),
    page('ey', 'xss', {
      title: '<script>alert("x")</script> Podatki & <b>VAT</b>',
      description: '<img src=x onerror=alert(1)> podatki "cudzysłów"',
      bodyText: 'Zwykły tekst o podatkach.',
      publishedAt: daysAgo(8),
    }),
  ]);
  await recordCrawl(database.db, 'pwc', {
    startedAt: daysAgo(0.1),
    finishedAt: daysAgo(0.05),
    error: null,
    pages: 23,
  });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await issuer?.close();
});

const postTo = (url: string) => (body: unknown) =>
  app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}` },
    payload: body as object,
  });
const post = postTo(competitorSearchPaths.search);

async function search(body: CompetitorSearchRequest): Promise<CompetitorSearchResponse> {
  const res = await post(body);
  expect(res.statusCode, res.body).toBe(200);
  return competitorSearchResponseSchema.parse(res.json());
}
const links = (r: CompetitorSearchResponse) => r.items.map((i) => i.link.split('/').pop());

describe('POST /api/brief/search-competitor-content', () => {
  it("answers in the spec's shape, newest first, with the matched words marked", async () => {
    const r = await search({ query: 'chmura', num: 3 });
    expect(links(r)).toEqual(['chmura-0', 'chmura-1', 'chmura-2']);
    expect(r.searchInformation).toMatchObject({ totalResults: 23, formattedTotalResults: '23' });
    expect(r.searchInformation.formattedSearchTime).toMatch(/^\d+\.\d\d$/);
    expect(r.queries.nextPage).toEqual([{ startIndex: 4 }]);
    const [first] = r.items;
    expect(first).toMatchObject({
      title: 'Chmura obliczeniowa, część 0',
      displayLink: 'pwc.pl',
      link: 'https://www.pwc.pl/pl/chmura-0',
      competitorKey: 'pwc',
      sample: false,
      snippet: 'Tekst 0 o migracji do chmury.',
    });
    expect(first!.snippetParts).toEqual([
      { text: 'Tekst 0 o migracji do ', match: false },
      { text: 'chmury', match: true },
      { text: '.', match: false },
    ]);
  });

  it('pages to the end: every page once, then no next page', async () => {
    const seen: string[] = [];
    let start: number | undefined = 1;
    const starts: number[] = [];
    while (start !== undefined) {
      starts.push(start);
      const r = await search({ query: 'chmura', num: 10, start });
      seen.push(...links(r).map(String));
      start = r.queries.nextPage?.[0]?.startIndex;
    }
    expect(starts).toEqual([1, 11, 21]);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, n) => `chmura-${n}`));
    const past = await search({ query: 'chmura', start: 31 });
    expect(past.items).toEqual([]);
    expect(past.queries.nextPage).toBeUndefined();
    expect(past.searchInformation.totalResults).toBe(23);
  });

  it('counts matching pages per competitor and week on the first page only', async () => {
    const first = await search({ query: 'chmura', dateRestrict: 'd3' });
    const counted = first.weeklyCounts!.reduce((sum, w) => sum + w.count, 0);
    expect(counted).toBe(first.searchInformation.totalResults);
    expect(
      first.weeklyCounts!.every((w) => w.competitorKey === 'pwc' && /^\d{4}-\d\d-\d\d$/.test(w.weekStart)),
    ).toBe(true);
    for (const w of first.weeklyCounts!) expect(new Date(`${w.weekStart}T00:00:00Z`).getUTCDay()).toBe(1);
    expect((await search({ query: 'chmura', start: 11 })).weeklyCounts).toBeUndefined();
  });

  it('finds Polish words with or without their accents, and other forms by prefix', async () => {
    for (const query of ['Żabka', 'zabka', 'ŻABKA', 'żabka sklepy', 'sklepów']) {
      expect(links(await search({ query })), query).toEqual(['zabka']);
    }
    expect(links(await search({ query: 'zarządzanie ryzykiem' }))).toEqual(['zarzadzanie']);
    const r = await search({ query: 'zabka' });
    expect(r.items[0]!.snippetParts.filter((p) => p.match).map((p) => p.text)).toEqual(['Żabka']);
  });

  it('reads quoted phrases, exclusions and OR', async () => {
    expect(links(await search({ query: '"raport roczny"' }))).toEqual(['raport-roczny']);
    expect(links(await search({ query: 'raport roczny' }))).toEqual(['raport-roczny', 'roczny-raport']);
    expect(links(await search({ query: 'esg' }))).toEqual(['greenwashing', 'esg']);
    expect(links(await search({ query: 'esg -greenwashing' }))).toEqual(['esg']);
    expect(links(await search({ query: 'esg -"ryzyko greenwashingu"' }))).toEqual(['esg']);
    expect(links(await search({ query: 'żabka OR zarządzanie' }))).toEqual(['zabka', 'zarzadzanie']);
    // Operators and punctuation in a query never reach PostgreSQL as syntax.
    expect(links(await search({ query: "esg' & !greenwashing:* | (x" }))).toEqual(['greenwashing']);
    expect(links(await search({ query: "esg) | ('greenwashing" }))).toEqual(['greenwashing', 'esg']);
  });

  it('refuses a query with no words to search for, naming the field', async () => {
    for (const query of ['!!!', '"" OR -', '***', '  ,.;  ']) {
      const res = await post({ query });
      expect(res.statusCode, query).toBe(400);
      expect(errorResponseSchema.parse(res.json()).error.issues).toEqual([
        { path: 'body.query', message: NO_WORDS },
      ]);
    }
    const res = await post({ query: '-esg -greenwashing' });
    expect(res.json().error.issues).toEqual([{ path: 'body.query', message: ONLY_EXCLUDED }]);
  });

  it('filters by one competitor’s site', async () => {
    const all = await search({ query: 'raport OR chmura', num: 10 });
    expect(new Set(all.items.map((i) => i.competitorKey))).toEqual(new Set(['pwc', 'deloitte', 'ey']));
    for (const siteSearch of [
      'www.deloitte.com/pl/pl/',
      'WWW.deloitte.com/pl/pl',
      'https://www.deloitte.com/pl/pl/',
    ]) {
      const r = await search({ query: 'raport OR chmura', siteSearch });
      expect(
        r.items.map((i) => i.competitorKey),
        siteSearch,
      ).toEqual(['deloitte', 'deloitte']);
      expect(r.searchInformation.totalResults).toBe(2);
    }
    expect((await search({ query: 'chmura', siteSearch: '' })).searchInformation.totalResults).toBe(23);
    expect((await search({ query: 'chmura', siteSearch: null })).searchInformation.totalResults).toBe(23);
    const res = await post({ query: 'chmura', siteSearch: 'www.example.com/' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues).toEqual([{ path: 'body.siteSearch', message: UNKNOWN_SITE }]);
  });

  it('orders by date with undated pages last, or by relevance (title first)', async () => {
    expect(links(await search({ query: 'raportowanie esg' }))).toEqual(['greenwashing', 'esg']);
    expect(links(await search({ query: 'raportowanie', sort: 'relevance' }))).toEqual([
      'esg',
      'greenwashing',
    ]);
    expect(links(await search({ query: 'podatki', sort: 'date' }))).toEqual(['roczny-raport', 'xss']);
  });

  it('gives titles and snippets as plain text, markup and all', async () => {
    const r = await search({ query: 'vat' });
    const [item] = r.items;
    expect(item!.title).toBe('<script>alert("x")</script> Podatki & <b>VAT</b>');
    expect(item!.snippet).toBe('<img src=x onerror=alert(1)> podatki "cudzysłów"');
    expect(item!.snippetParts.map((p) => p.text).join('')).toBe(item!.snippet);
    const res = await post({ query: 'podatki' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // JSON carries the text; nothing in it is markup GEM made. The page renders it as text.
    expect(res.body).not.toContain('<strong>');
    expect(res.body).not.toContain('<mark>');
  });

  it('refuses bad values with a 400 naming each field', async () => {
    const res = await post({
      query: '',
      num: 11,
      start: 0,
      dateRestrict: 'm3',
      sort: 'popular',
      siteSearch: 5,
    });
    expect(res.statusCode).toBe(400);
    const paths = errorResponseSchema.parse(res.json()).error.issues!.map((i) => i.path);
    expect([...new Set(paths)].sort()).toEqual([
      'body.dateRestrict',
      'body.num',
      'body.query',
      'body.siteSearch',
      'body.sort',
      'body.start',
    ]);
    expect((await post({ query: 'chmura', dateRestrict: 'd0' })).statusCode).toBe(400);
    expect((await post({ query: 'chmura', start: 1001 })).statusCode).toBe(400);
  });
});

describe('POST /api/competitor-search/weekly-counts', () => {
  const postCounts = postTo(competitorSearchPaths.weeklyCounts);

  it('counts every match per competitor and week, as the first page does when it counted them all', async () => {
    for (const request of [
      { query: 'chmura', dateRestrict: 'd10' },
      { query: 'raport OR podatki', dateRestrict: 'w2' },
      { query: 'chmura', dateRestrict: 'd90', siteSearch: 'www.pwc.pl/pl/' },
    ]) {
      const res = await postCounts(request);
      expect(res.statusCode, res.body).toBe(200);
      const counts = competitorWeeklyCountsResponseSchema.parse(res.json());
      const first = await search(request);
      expect(counts.total, request.query).toBe(first.searchInformation.totalResults);
      expect(counts.weeklyCounts, request.query).toEqual(first.weeklyCounts);
    }
  });

  it('counts undated pages in the total but in no week', async () => {
    const counts = competitorWeeklyCountsResponseSchema.parse((await postCounts({ query: 'ESG' })).json());
    expect(counts.total).toBe(2);
    expect(counts.weeklyCounts.reduce((sum, w) => sum + w.count, 0)).toBe(1);
  });

  it('refuses what a search refuses, naming the field', async () => {
    const res = await postCounts({ query: '-chmura', siteSearch: 'example.com/' });
    expect(res.statusCode).toBe(400);
    const issues = errorResponseSchema.parse(res.json()).error.issues!;
    expect(issues.map((i) => i.path).sort()).toEqual(['body.query', 'body.siteSearch']);
    expect(issues.find((i) => i.path === 'body.query')!.message).toBe(ONLY_EXCLUDED);
    const window = await postCounts({ query: 'chmura', dateRestrict: 'd0' });
    expect(window.statusCode).toBe(400);
    expect(errorResponseSchema.parse(window.json()).error.issues!.map((i) => i.path)).toEqual([
      'body.dateRestrict',
    ]);
  });

  it('needs a signed-in user', async () => {
    const res = await app.inject({
      method: 'POST',
      url: competitorSearchPaths.weeklyCounts,
      payload: { query: 'chmura' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('the date window', () => {
  it('keeps a page published exactly at the window’s start and drops one a millisecond older', async () => {
    const now = new Date('2026-06-15T12:00:00.000Z');
    const edge = new Date(now.getTime() - 7 * DAY);
    await upsertCompetitorPages(database.db, [
      page('kpmg', 'edge-in', { title: 'Okno czasowe brzeg', publishedAt: edge }),
      page('kpmg', 'edge-out', { title: 'Okno czasowe poza', publishedAt: new Date(edge.getTime() - 1) }),
      page('kpmg', 'edge-now', { title: 'Okno czasowe teraz', publishedAt: now }),
      page('kpmg', 'edge-undated', { title: 'Okno czasowe bez daty', publishedAt: null }),
    ]);
    const service = createCompetitorSearchService({
      db: database.db,
      search: createIndexSearch({ db: database.db }),
      competitors: config.competitors,
      now: () => now,
    });
    const ask = async (dateRestrict: string | null) =>
      (
        await service.search({ query: 'okno czasowe', num: 10, start: 1, sort: 'date', dateRestrict })
      ).items.map((i) => i.link.split('/').pop());
    expect(await ask('d7')).toEqual(['edge-now', 'edge-in']);
    expect(await ask('w1')).toEqual(['edge-now', 'edge-in']);
    expect(await ask('d8')).toEqual(['edge-now', 'edge-in', 'edge-out']);
    expect(await ask(null)).toEqual(['edge-now', 'edge-in', 'edge-out', 'edge-undated']);
  });
});

describe('GET /api/competitor-search/competitors', () => {
  it('lists the competitors with their siteSearch, pages and last crawl', async () => {
    const res = await app.inject({
      method: 'GET',
      url: competitorSearchPaths.competitors,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = competitorsResponseSchema.parse(res.json());
    expect(body).toMatchObject({ provider: 'index', sample: false, crawling: false });
    expect(body.competitors.map((c) => c.key)).toEqual([
      'deloitte',
      'ey',
      'pwc',
      'strategyand',
      'mckinsey',
      'kpmg',
    ]);
    expect(body.competitors.find((c) => c.key === 'pwc')).toEqual({
      key: 'pwc',
      name: 'PwC',
      site: 'https://www.pwc.pl/pl/',
      siteSearch: 'www.pwc.pl/pl/',
      pages: 23,
      lastCrawledAt: expect.any(String),
      lastError: null,
    });
    expect(body.competitors.find((c) => c.key === 'mckinsey')).toMatchObject({
      pages: 0,
      lastCrawledAt: null,
    });
  });
});

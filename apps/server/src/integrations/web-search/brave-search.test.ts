import { competitorSearchPaths, competitorSearchResponseSchema } from '@gem/contracts/competitor-search';
import { errorResponseSchema } from '@gem/contracts/errors';
import { startBraveServer, type BraveServer } from '@gem/test-servers/brave-server';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import type { Database } from '../../db/client';
import { braveSnippetParts } from './brave-search';

/** The Brave Search API adapter, through GEM's route, against a local server speaking Brave's protocol. */

let issuer: OidcIssuer;
let brave: BraveServer;
let database: Database;
let app: App;
let token: string;

const DAY = 24 * 60 * 60 * 1000;
const ymd = (d: Date) => d.toISOString().slice(0, 10);

beforeAll(async () => {
  issuer = await startOidcIssuer();
  brave = await startBraveServer();
  database = await createTestDatabase();
  const base = testConfig();
  const config = testConfig({
    access: { ...base.access, allowedDomains: ['competitors.example'] },
    auth: externalAuth(issuer.issuer),
    search: { provider: 'brave', brave: { apiKey: brave.token, baseUrl: brave.origin } },
  });
  app = await buildTestApp({ config, database });
  token = await issuer.sign(accessClaims('analyst', 'competitors.example'));
  brave.setDocuments([
    ...Array.from({ length: 25 }, (_, n) => ({
      title: `Chmura i dane, część ${n}`,
      url: `https://www.pwc.pl/pl/chmura-${n}.html`,
      description: `Raport o chmurze numer ${n}.`,
      pageAge: new Date(Date.now() - (n + 1) * DAY).toISOString(),
    })),
    {
      title: 'Chmura &amp; &lt;script&gt;alert(1)&lt;/script&gt;',
      url: 'https://www.deloitte.com/pl/pl/chmura-xss.html',
      description: '<img src=x onerror=alert(1)> chmura',
      pageAge: new Date(Date.now() - 2 * DAY).toISOString(),
    },
    {
      title: 'Chmura poza Polską',
      url: 'https://www.example.org/chmura',
      description: 'Nie na stronie konkurenta.',
    },
  ]);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await brave?.close();
  await issuer?.close();
});

beforeEach(() => brave.failWith(null));

const post = (body: object) =>
  app.inject({
    method: 'POST',
    url: competitorSearchPaths.search,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
const lastRequest = () => brave.requests().at(-1)!;

describe('the Brave Search API adapter', () => {
  it('sends the query restricted to the competitors’ sites, with its token, count and offset', async () => {
    const res = await post({ query: 'chmura -azure', num: 10, start: 11 });
    expect(res.statusCode, res.body).toBe(200);
    const { params, headers } = lastRequest();
    expect(headers['x-subscription-token']).toBe(brave.token);
    expect(headers.accept).toBe('application/json');
    expect(params).toMatchObject({ count: '10', offset: '1', country: 'PL', search_lang: 'pl' });
    expect(params.q).toBe(
      'chmura -azure (site:www.deloitte.com OR site:www.ey.com OR site:www.pwc.pl OR site:www.strategyand.pwc.com OR site:www.mckinsey.com OR site:kpmg.com)',
    );
    expect(params.freshness).toBeUndefined();
    const body = competitorSearchResponseSchema.parse(res.json());
    expect(body.items).toHaveLength(10);
    expect(body.items[0]).toMatchObject({ displayLink: 'pwc.pl', competitorKey: 'pwc', sample: false });
    expect(body.queries.nextPage).toEqual([{ startIndex: 21 }]);
    expect(body.weeklyCounts).toBeUndefined();
  });

  it('restricts to one site, and sends the window as freshness', async () => {
    await post({ query: 'chmura', siteSearch: 'www.deloitte.com/pl/pl/', dateRestrict: 'd1' });
    expect(lastRequest().params).toMatchObject({ q: 'chmura site:www.deloitte.com', freshness: 'pd' });
    await post({ query: 'chmura', dateRestrict: 'w1' });
    expect(lastRequest().params.freshness).toBe('pw');
    const res = await post({ query: 'chmura', dateRestrict: 'd5', siteSearch: 'www.pwc.pl/pl/' });
    const now = Date.now();
    expect(lastRequest().params.freshness).toBe(`${ymd(new Date(now - 5 * DAY))}to${ymd(new Date(now))}`);
    // Brave's date ranges are whole days: the page five days and some hours old is in.
    const body = competitorSearchResponseSchema.parse(res.json());
    expect(body.items.map((i) => i.link)).toEqual(
      [0, 1, 2, 3, 4].map((n) => `https://www.pwc.pl/pl/chmura-${n}.html`),
    );
  });

  it('pages to the end, where Brave has no more', async () => {
    const starts: number[] = [];
    let start: number | undefined = 1;
    let seen = 0;
    while (start !== undefined) {
      starts.push(start);
      const res = await post({ query: 'chmura', siteSearch: 'www.pwc.pl/pl/', start });
      const body = competitorSearchResponseSchema.parse(res.json());
      seen += body.items.length;
      start = body.queries.nextPage?.[0]?.startIndex;
    }
    expect(starts).toEqual([1, 11, 21]);
    expect(seen).toBe(25);
  });

  it('gives titles and snippets as plain text, with Brave’s marks as matched parts', async () => {
    const res = await post({ query: 'chmura', siteSearch: 'www.deloitte.com/pl/pl/' });
    const [item] = competitorSearchResponseSchema.parse(res.json()).items;
    expect(item!.title).toBe('Chmura & <script>alert(1)</script>');
    expect(item!.snippet).toBe('<img src=x onerror=alert(1)> chmura');
    expect(item!.snippetParts).toEqual([
      { text: '<img src=x onerror=alert(1)> ', match: false },
      { text: 'chmura', match: true },
    ]);
    expect(braveSnippetParts('a <strong>b</strong> &#x3C;i&#62; <em>c</em> &bogus; &#0;')).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
      { text: ' <i> c &bogus; \ufffd', match: false },
    ]);
  });

  it('maps Brave’s refusals to clear errors', async () => {
    const cases = [
      { failure: { status: 401 }, status: 502, message: /refused GEM's key\. Ask your administrator/ },
      {
        failure: { status: 429, headers: { 'x-ratelimit-reset': '7, 2000000' } },
        status: 503,
        message: /busy/,
      },
      { failure: { status: 500 }, status: 503, message: /not answering/ },
      { failure: { status: 503 }, status: 503, message: /not answering/ },
      { failure: { status: 422 }, status: 502, message: /refused the search/ },
    ];
    for (const c of cases) {
      brave.failWith(c.failure);
      const res = await post({ query: 'chmura' });
      expect(res.statusCode, JSON.stringify(c.failure)).toBe(c.status);
      expect(errorResponseSchema.parse(res.json()).error.message).toMatch(c.message);
      if (c.failure.status === 429) expect(res.headers['retry-after']).toBe('7');
    }
  });
});

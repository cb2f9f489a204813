import { gzipSync } from 'node:zlib';
import {
  gzippedSitemap,
  sitemap,
  sitemapIndex,
  startSiteHost,
  type SiteHost,
  type SitemapEntry as SiteEntry,
} from '@gem/test-servers/site-host';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { publicAddressesOnly } from '../../../integrations/http/address-policy';
import { HttpFetchError, safeFetch } from '../../../integrations/http/safe-fetch';
import { createCandidateSet } from './candidates';
import { readSitemaps, type ReadSitemapsOptions, type SitemapEntry } from './sitemaps';

let site: SiteHost;
beforeAll(async () => {
  site = await startSiteHost();
});
afterAll(async () => {
  await site?.close();
});
beforeEach(() => site.reset());

const NOW = Date.parse('2026-11-20T08:00:00Z');
const xml = (body: string | Buffer) => ({ body, contentType: 'application/xml' });

/** Reads through GEM's own fetch, counting the bytes handed to the reader. */
function read(overrides: Partial<ReadSitemapsOptions> & Pick<ReadSitemapsOptions, 'roots'>) {
  const pages: SitemapEntry[] = [];
  const errors: string[] = [];
  let bytes = 0;
  const done = readSitemaps({
    origin: site.origin,
    site: site.url('/pl/'),
    maxBytes: 1024 * 1024,
    now: NOW,
    fetch: async (url, onData) => {
      try {
        const answer = await safeFetch(url, {
          isPermittedAddress: (a) => a === '127.0.0.1' || publicAddressesOnly(a),
          timeoutMs: 5_000,
          maxBytes: 1024 * 1024,
          userAgent: 'GEM-test/1.0',
          onData: (chunk) => {
            bytes += chunk.length;
            return onData(chunk);
          },
        });
        return answer.status === 'ok';
      } catch (err) {
        if (err instanceof HttpFetchError && err.httpStatus === 404) return false;
        throw err;
      }
    },
    allows: () => true,
    couldTake: () => true,
    onPage: (entry) => pages.push(entry),
    onError: (url, err) => errors.push(`${new URL(url).pathname}: ${(err as Error).message}`),
    signal: new AbortController().signal,
    ...overrides,
  });
  return done.then(() => ({ pages, errors, bytes }));
}

const paths = (entries: { loc?: string; key?: string }[]) =>
  entries.map((e) => new URL(e.loc ?? e.key!).pathname);
const sitemapRequests = () =>
  site
    .requests()
    .map((r) => r.path)
    .filter((p) => p.includes('sitemap'));

describe('reading a sitemap as it arrives', () => {
  it('lists a urlset’s pages with lastmod: entities, CDATA and namespace prefixes as XML has them', async () => {
    site.load({
      '/pl/sitemap.xml': xml(
        sitemap([
          { loc: site.url('/pl/a?x=1&y=2'), lastmod: '2026-05-01' },
          { loc: site.url('/pl/b') },
          { loc: site.url('/pl/c'), lastmod: 'yesterday' },
        ]).replace(
          '</urlset>',
          `<url><loc><![CDATA[${site.url('/pl/cdata')}]]></loc></url><sm:url xmlns:sm="x"><sm:loc>${site.url('/pl/prefixed')}</sm:loc><sm:lastmod>2026-06-01T10:00:00+02:00</sm:lastmod></sm:url></urlset>`,
        ),
      ),
    });
    const { pages, errors } = await read({ roots: [site.url('/pl/sitemap.xml')] });
    expect(errors).toEqual([]);
    expect(pages).toEqual([
      { loc: site.url('/pl/a?x=1&y=2'), lastmod: new Date('2026-05-01T00:00:00Z') },
      { loc: site.url('/pl/b'), lastmod: null },
      { loc: site.url('/pl/c'), lastmod: null },
      { loc: site.url('/pl/cdata'), lastmod: null },
      { loc: site.url('/pl/prefixed'), lastmod: new Date('2026-06-01T08:00:00Z') },
    ]);
  });

  it('reads an index’s sitemaps, gzipped ones too, on the site’s origin only; a missing one is no error', async () => {
    site.load({
      '/sitemap_index.xml': xml(
        sitemapIndex([
          { loc: 'https://elsewhere.example/pl/sitemap.xml' },
          { loc: site.url('/pl/missing.xml') },
          { loc: site.url('/pl/sitemap-2.xml.gz') },
        ]),
      ),
      '/pl/sitemap-2.xml.gz': gzippedSitemap([{ loc: site.url('/pl/from-gzip/') }]),
    });
    const { pages, errors } = await read({ roots: [site.url('/sitemap_index.xml')] });
    expect(errors).toEqual([]);
    expect(paths(pages)).toEqual(['/pl/from-gzip/']);
    expect(site.requests().map((r) => r.path)).toEqual([
      '/sitemap_index.xml',
      '/pl/missing.xml',
      '/pl/sitemap-2.xml.gz',
    ]);
  });

  it('stops reading a document that is not a sitemap at its first element, and says so', async () => {
    site.load({
      '/pl/sitemap.xml': {
        body: `<!doctype html><html><body>${'<p>nie ma</p>'.repeat(50_000)}</body></html>`,
      },
      '/pl/empty.xml': xml(''),
    });
    const { errors, bytes } = await read({ roots: [site.url('/pl/sitemap.xml'), site.url('/pl/empty.xml')] });
    expect(errors).toEqual(['/pl/sitemap.xml: not a sitemap', '/pl/empty.xml: not a sitemap']);
    expect(bytes).toBeLessThan(256 * 1024);
  });

  it('refuses a gzip bomb past the cap after unpacking, a damaged gzip file and a document nested too deep', async () => {
    const bomb = gzipSync(
      Buffer.from(`<urlset>${`<url><loc>${site.url('/pl/x/')}</loc></url>`.repeat(100_000)}</urlset>`),
    );
    site.load({
      '/pl/bomb.xml.gz': xml(bomb),
      '/pl/damaged.xml.gz': xml(gzipSync(sitemap([{ loc: site.url('/pl/y/') }])).subarray(0, 40)),
      '/pl/deep.xml': xml(`<urlset>${'<a>'.repeat(100)}`),
    });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const roots = ['/pl/bomb.xml.gz', '/pl/damaged.xml.gz', '/pl/deep.xml'].map((p) => site.url(p));
    const { errors } = await read({ roots });
    expect(errors).toEqual([
      '/pl/bomb.xml.gz: the gzipped sitemap is larger than GEM reads',
      '/pl/damaged.xml.gz: the gzipped sitemap is damaged',
      '/pl/deep.xml: the sitemap nests deeper than GEM reads',
    ]);
  });
});

describe('a round’s candidates from large sitemaps', () => {
  // Four sitemaps of 5,000 entries each, a minute apart: sitemap k holds entries
  // k·5,000 … k·5,000+4,999 counted back from the newest, so sitemap 0 holds the newest.
  const PER_SITEMAP = 5_000;
  const newest = Date.parse('2026-11-19T12:00:00Z');
  const dateOf = (n: number) => new Date(newest - n * 60_000);
  const entriesOf = (k: number): SiteEntry[] =>
    Array.from({ length: PER_SITEMAP }, (_, i) => {
      const n = k * PER_SITEMAP + i;
      return { loc: site.url(`/pl/article-${n}/`), lastmod: dateOf(n).toISOString() };
    });
  /** The index, dated as `indexDate` says, and its four sitemaps. */
  function loadIndex(indexDate: (k: number) => string | undefined, order = [0, 1, 2, 3]) {
    site.load({
      '/sitemap_index.xml': xml(
        sitemapIndex(order.map((k) => ({ loc: site.url(`/pl/sitemap-${k}.xml`), lastmod: indexDate(k) }))),
      ),
      ...Object.fromEntries([0, 1, 2, 3].map((k) => [`/pl/sitemap-${k}.xml`, xml(sitemap(entriesOf(k)))])),
    });
  }
  const CAP = 20;
  const newestPaths = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => `/pl/article-${from + i}/`);

  async function roundOf(options: { since?: Date | null; stored?: Map<string, { fetchedAt: Date }> } = {}) {
    const set = createCandidateSet({
      cap: CAP,
      since: options.since ?? null,
      stored: options.stored ?? new Map(),
      admits: () => true,
    });
    const { errors } = await read({
      roots: [site.url('/sitemap_index.xml')],
      couldTake: (lastmod) => set.couldTake(lastmod),
      onPage: (entry) => set.offer(entry.loc, { lastmod: entry.lastmod }),
    });
    expect(errors).toEqual([]);
    return set.ordered().map((c) => c.candidate);
  }

  it('keeps at most the cap, the newest by lastmod, and reads only the sitemaps that could hold newer ones', async () => {
    // The index dates each sitemap by its newest entry; listed oldest first, read newest first.
    loadIndex((k) => dateOf(k * PER_SITEMAP).toISOString(), [3, 2, 1, 0]);
    const kept = await roundOf();
    expect(kept).toHaveLength(CAP);
    expect(paths(kept)).toEqual(newestPaths(CAP));
    expect(sitemapRequests()).toEqual(['/sitemap_index.xml', '/pl/sitemap-0.xml']);
  });

  it('reads every sitemap an index dates alike, and still keeps only the newest', async () => {
    loadIndex(() => dateOf(0).toISOString(), [3, 2, 1, 0]);
    const kept = await roundOf();
    expect(paths(kept)).toEqual(newestPaths(CAP));
    expect(sitemapRequests()).toHaveLength(5);
  });

  it('without dates in the index, stops once full of new or changed pages, and reads on while it holds pages GEM has', async () => {
    loadIndex(() => undefined);
    expect(paths(await roundOf())).toEqual(newestPaths(CAP));
    expect(sitemapRequests()).toEqual(['/sitemap_index.xml', '/pl/sitemap-0.xml']);

    // A later round: every page of sitemap 0 is stored and unchanged since, so the next is read.
    site.reset();
    loadIndex(() => undefined);
    const fetchedAt = new Date(newest + 3600_000);
    const stored = new Map(entriesOf(0).map((e) => [e.loc, { fetchedAt }]));
    const kept = await roundOf({ since: fetchedAt, stored });
    expect(paths(kept)).toEqual(newestPaths(CAP, PER_SITEMAP));
    expect(sitemapRequests()).toEqual(['/sitemap_index.xml', '/pl/sitemap-0.xml', '/pl/sitemap-1.xml']);
  });

  it('in a later round, reads only the sitemaps changed since when those fill the cap', async () => {
    // Sitemap 0 changed after the last round (its entries are newer than `since`); the rest did not.
    loadIndex((k) => dateOf(k * PER_SITEMAP).toISOString());
    const since = dateOf(PER_SITEMAP - 1);
    const kept = await roundOf({ since });
    expect(paths(kept)).toEqual(newestPaths(CAP));
    expect(sitemapRequests()).toEqual(['/sitemap_index.xml', '/pl/sitemap-0.xml']);
  });
});

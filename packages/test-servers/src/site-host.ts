import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * A local web site host for the competitor crawler's tests and bench: serves small fictional
 * sites (robots.txt, sitemaps plain, indexed and gzipped, feeds, HTML pages with article
 * metadata and JSON-LD) over real HTTP, answers conditional GETs with 304, and misbehaves on
 * purpose: any status with any headers (429 with Retry-After), 301/302 chains, a hang, an
 * endless body, answers that change from one request to the next. It records every request.
 */

export type SiteAnswer = {
  status?: number;
  body?: string | Buffer;
  contentType?: string;
  headers?: OutgoingHttpHeaders;
  etag?: string;
  lastModified?: string;
  /** Answers with `redirectStatus` (302 by default) and this Location. */
  redirectTo?: string;
  redirectStatus?: 301 | 302 | 303 | 307 | 308;
  /** Sends the body gzipped with Content-Encoding: gzip. */
  gzip?: boolean;
  /** Accepts the request and never answers. */
  hang?: boolean;
  /** Streams this many bytes of padding after the body, slowly enough to be cut off. */
  padBytes?: number;
};

/** One answer, or a list answered in turn (the last one repeats): a 429, then the page. */
export type SiteRoute = SiteAnswer | SiteAnswer[];

export type SiteRequest = { path: string; query: string; headers: IncomingMessage['headers'] };

export type SiteHost = {
  /** http://127.0.0.1:<port> */
  origin: string;
  url(path: string): string;
  set(path: string, route: SiteRoute): void;
  /** Sets several routes at once: { '/robots.txt': …, '/pl/': … }. */
  load(routes: Record<string, SiteRoute>): void;
  /** Forgets every route and every recorded request. */
  reset(): void;
  requests(path?: string): SiteRequest[];
  /** Resolves with the first request for `path` once it has arrived: tests wait instead of sleeping. */
  waitForRequest(path: string): Promise<SiteRequest>;
  close(): Promise<void>;
};

export async function startSiteHost(): Promise<SiteHost> {
  const routes = new Map<string, SiteAnswer[]>();
  const served = new Map<string, number>();
  let seen: SiteRequest[] = [];
  const waiters: { path: string; resolve: (r: SiteRequest) => void }[] = [];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const [path = '/', query = ''] = (req.url ?? '/').split('?');
    const request = { path, query, headers: req.headers };
    seen.push(request);
    for (const waiter of waiters.filter((w) => w.path === path)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(request);
    }
    const answers = routes.get(path);
    if (!answers) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Nie znaleziono</h1>');
      return;
    }
    const count = served.get(path) ?? 0;
    served.set(path, count + 1);
    const answer = answers[Math.min(count, answers.length - 1)]!;
    if (answer.hang) return;
    if (answer.redirectTo) {
      res.writeHead(answer.redirectStatus ?? 302, { location: answer.redirectTo, ...answer.headers }).end();
      return;
    }
    const validators: Record<string, string> = {};
    if (answer.etag) validators.etag = answer.etag;
    if (answer.lastModified) validators['last-modified'] = answer.lastModified;
    const status = answer.status ?? 200;
    if (status === 200) {
      const etagMatches = answer.etag !== undefined && req.headers['if-none-match'] === answer.etag;
      const dateMatches =
        answer.lastModified !== undefined && req.headers['if-modified-since'] === answer.lastModified;
      if (etagMatches || (dateMatches && !req.headers['if-none-match'])) {
        res.writeHead(304, validators).end();
        return;
      }
    }
    let body = typeof answer.body === 'string' ? Buffer.from(answer.body) : (answer.body ?? Buffer.alloc(0));
    const headers: OutgoingHttpHeaders = {
      'content-type': answer.contentType ?? 'text/html; charset=utf-8',
      ...validators,
      ...answer.headers,
    };
    if (answer.gzip) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
    res.writeHead(status, headers);
    if (!answer.padBytes) {
      res.end(body);
      return;
    }
    res.write(body);
    let left = answer.padBytes;
    const pump = () => {
      if (left <= 0 || res.destroyed) return res.end();
      const chunk = Math.min(left, 64 * 1024);
      left -= chunk;
      res.write('<p>padding</p>'.repeat(Math.ceil(chunk / 14)).slice(0, chunk), () => setTimeout(pump, 1));
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const set = (path: string, route: SiteRoute) => {
    routes.set(path, Array.isArray(route) ? route : [route]);
    served.delete(path);
  };

  return {
    origin,
    url: (path) => `${origin}${path}`,
    set,
    load: (all) => {
      for (const [path, route] of Object.entries(all)) set(path, route);
    },
    reset: () => {
      routes.clear();
      served.clear();
      seen = [];
    },
    requests: (path) => seen.filter((r) => path === undefined || r.path === path),
    waitForRequest: (path) =>
      new Promise<SiteRequest>((resolve) => {
        const arrived = seen.find((r) => r.path === path);
        if (arrived) resolve(arrived);
        else waiters.push({ path, resolve });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Builders for the documents a site serves. Text is escaped; a test that needs broken markup
// writes the body itself.

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export type PageFixture = {
  title: string;
  description?: string;
  /** Paragraphs of the article. */
  paragraphs?: string[];
  /** <meta property="article:published_time">, ISO 8601. */
  publishedTime?: string;
  /** A JSON-LD Article's datePublished. */
  jsonLdDate?: string;
  /** <link rel="canonical" href>. */
  canonical?: string;
  /** <meta name="robots" content>. */
  robots?: string;
  /** <a href> in the page's navigation. */
  links?: string[];
  /** <link rel="alternate" type="application/rss+xml" href>. */
  feeds?: string[];
};

/** An HTML page with a header, navigation, an article and a footer, as a real site has. */
export function htmlPage(p: PageFixture): string {
  const head = [
    '<meta charset="utf-8">',
    `<title>${esc(p.title)} | Fikcyjna Firma Doradcza</title>`,
    p.description ? `<meta name="description" content="${esc(p.description)}">` : '',
    p.publishedTime ? `<meta property="article:published_time" content="${esc(p.publishedTime)}">` : '',
    p.canonical ? `<link rel="canonical" href="${esc(p.canonical)}">` : '',
    p.robots ? `<meta name="robots" content="${esc(p.robots)}">` : '',
    ...(p.feeds ?? []).map(
      (f) => `<link rel="alternate" type="application/rss+xml" title="Aktualności" href="${esc(f)}">`,
    ),
    p.jsonLdDate
      ? `<script type="application/ld+json">${JSON.stringify({
          '@context': 'https://schema.org',
          '@type': 'Article',
          headline: p.title,
          datePublished: p.jsonLdDate,
        })}</script>`
      : '',
  ].join('');
  const paragraphs = p.paragraphs ?? [
    `${p.title}: analiza rynku doradczego w Polsce, przygotowana przez zespół ekspertów.`,
    'Firmy w Polsce inwestują w transformację cyfrową, raportowanie ESG i cyberbezpieczeństwo.',
    'W raporcie omawiamy wyniki badania, wnioski dla zarządów i rekomendacje na kolejny rok.',
  ];
  return `<!doctype html><html lang="pl"><head>${head}</head><body><header><nav><a href="/pl/">Strona główna</a>${(
    p.links ?? []
  )
    .map((l) => `<a href="${esc(l)}">${esc(l)}</a>`)
    .join(
      ' ',
    )}</nav></header><main><article><h1>${esc(p.title)}</h1>${paragraphs.map((t) => `<p>${esc(t)}</p>`).join('')}</article></main><footer><p>© Fikcyjna Firma Doradcza. Polityka prywatności. Cookies.</p></footer></body></html>`;
}

export type SitemapEntry = { loc: string; lastmod?: string };

/** A <urlset> sitemap. */
export function sitemap(entries: SitemapEntry[]): string {
  const urls = entries
    .map(
      (e) => `<url><loc>${esc(e.loc)}</loc>${e.lastmod ? `<lastmod>${esc(e.lastmod)}</lastmod>` : ''}</url>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
}

/** A <sitemapindex> naming other sitemaps. */
export function sitemapIndex(entries: SitemapEntry[]): string {
  const maps = entries
    .map(
      (e) =>
        `<sitemap><loc>${esc(e.loc)}</loc>${e.lastmod ? `<lastmod>${esc(e.lastmod)}</lastmod>` : ''}</sitemap>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${maps}</sitemapindex>`;
}

/** A sitemap file served as a .xml.gz download (gzip bytes, not Content-Encoding). */
export function gzippedSitemap(entries: SitemapEntry[]): SiteAnswer {
  return { body: gzipSync(sitemap(entries)), contentType: 'application/x-gzip' };
}

/** An RSS 2.0 feed of pages: link and pubDate. */
export function rssOf(title: string, items: { link: string; title: string; date?: string }[]): string {
  const entries = items
    .map(
      (i) =>
        `<item><title>${esc(i.title)}</title><link>${esc(i.link)}</link><guid>${esc(i.link)}</guid>${
          i.date ? `<pubDate>${new Date(i.date).toUTCString()}</pubDate>` : ''
        }</item>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${esc(title)}</title><link>http://site.example/</link><description>${esc(title)}</description>${entries}</channel></rss>`;
}

/**
 * A plain fictional site under `path` (e.g. '/pl/'): a robots.txt naming a sitemap, the sitemap
 * listing `pages` articles with lastmod dates, and the articles. For benches and simple tests.
 */
export function fictionalSite(
  origin: string,
  path: string,
  pages: number,
  { lastmod = '2026-11-01' }: { lastmod?: string } = {},
): Record<string, SiteRoute> {
  const routes: Record<string, SiteRoute> = {
    '/robots.txt': {
      body: `User-agent: *\nDisallow: /admin/\n\nSitemap: ${origin}${path}sitemap.xml\n`,
      contentType: 'text/plain',
    },
  };
  const entries: SitemapEntry[] = [];
  for (let n = 1; n <= pages; n++) {
    const at = `${path}insights/article-${n}/`;
    entries.push({ loc: `${origin}${at}`, lastmod });
    routes[at] = {
      body: htmlPage({
        title: `Raport ${n}: rynek doradczy`,
        description: `Opis raportu ${n}`,
        publishedTime: `2026-10-${String((n % 28) + 1).padStart(2, '0')}T08:00:00Z`,
        links: [`${path}insights/article-${(n % pages) + 1}/`],
      }),
      etag: `"a${n}"`,
    };
  }
  routes[`${path}sitemap.xml`] = { body: sitemap(entries), contentType: 'application/xml' };
  routes[path] = {
    etag: '"home"',
    body: htmlPage({
      title: 'Strona główna',
      links: entries.slice(0, 5).map((e) => new URL(e.loc).pathname),
    }),
  };
  return routes;
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local feed host: serves JSON Feed, RSS and Atom documents over real HTTP, with ETag and
 * Last-Modified validators (answering 304 to a matching conditional GET), and can misbehave
 * on purpose: any status, a redirect, a hang, an endless body. It records every request.
 */

export type FeedRoute = {
  status?: number;
  body?: string;
  contentType?: string;
  etag?: string;
  lastModified?: string;
  /** Sends a 302 to this address. */
  redirectTo?: string;
  /** Accepts the request and never answers. */
  hang?: boolean;
  /** Streams this many bytes of padding after the body, slowly enough to be cut off. */
  padBytes?: number;
};

export type RecordedRequest = { path: string; headers: IncomingMessage['headers'] };

export type FeedServer = {
  /** http://127.0.0.1:<port> */
  origin: string;
  url(path: string): string;
  set(path: string, route: FeedRoute): void;
  requests(path?: string): RecordedRequest[];
  /**
   * Resolves with the `count`-th request for `path` (the first by default) once it has arrived,
   * at once if it already has: tests wait for a request instead of sleeping.
   */
  waitForRequest(path: string, count?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
};

// A small picture for item images, so pages can load them from the feed host.
const svg = (hue: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180"><rect width="320" height="180" fill="#F6F0EA"/><circle cx="160" cy="90" r="60" fill="${hue}"/></svg>`;

export async function startFeedServer(): Promise<FeedServer> {
  // Bodies are kept encoded, so serving a large one costs the test's event loop no encoding.
  const routes = new Map<string, FeedRoute & { bytes?: Buffer }>();
  const seen: RecordedRequest[] = [];
  const waiters: { path: string; count: number; resolve: (r: RecordedRequest) => void }[] = [];
  const nth = (path: string, count: number) => seen.filter((r) => r.path === path)[count - 1];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    seen.push({ path, headers: req.headers });
    for (const waiter of [...waiters]) {
      const arrived = nth(waiter.path, waiter.count);
      if (!arrived) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(arrived);
    }
    const image = /^\/images\/([a-z0-9-]+)\.svg$/.exec(path);
    if (image) {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=3600' });
      res.end(svg(image[1] === 'blue' ? '#4C7BFF' : '#FD5108'));
      return;
    }
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (route.hang) return;
    if (route.redirectTo) {
      res.writeHead(302, { location: route.redirectTo }).end();
      return;
    }
    const validators: Record<string, string> = {};
    if (route.etag) validators.etag = route.etag;
    if (route.lastModified) validators['last-modified'] = route.lastModified;
    const status = route.status ?? 200;
    if (status === 200) {
      const etagMatches = route.etag !== undefined && req.headers['if-none-match'] === route.etag;
      const dateMatches =
        route.lastModified !== undefined && req.headers['if-modified-since'] === route.lastModified;
      if (etagMatches || (dateMatches && !req.headers['if-none-match'])) {
        res.writeHead(304, validators).end();
        return;
      }
    }
    res.writeHead(status, { 'content-type': route.contentType ?? 'application/xml', ...validators });
    if (!route.padBytes) {
      res.end(route.bytes ?? '');
      return;
    }
    res.write(route.bytes ?? '');
    let left = route.padBytes;
    const pump = () => {
      if (left <= 0 || res.destroyed) return res.end();
      const chunk = Math.min(left, 64 * 1024);
      left -= chunk;
      res.write(' '.repeat(chunk), () => setTimeout(pump, 1));
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    url: (path) => `${origin}${path}`,
    set: (path, route) =>
      void routes.set(path, {
        ...route,
        bytes: route.body === undefined ? undefined : Buffer.from(route.body),
      }),
    requests: (path) => seen.filter((r) => path === undefined || r.path === path),
    waitForRequest: (path, count = 1) =>
      new Promise<RecordedRequest>((resolve) => {
        const arrived = nth(path, count);
        if (arrived) resolve(arrived);
        else waiters.push({ path, count, resolve });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An item for the document builders below. Leave a field out to test how it is handled. */
export type FixtureItem = {
  id: string;
  title?: string;
  url?: string;
  /** HTML; JSON Feed puts it in content_html, RSS in description, Atom in an html summary. */
  html?: string;
  /** JSON Feed content_text. */
  text?: string;
  image?: string;
  /** ISO 8601. */
  date?: string;
  authors?: string[];
};

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON Feed 1.1 (authors[]) or 1.0 (author). */
export function jsonFeed(title: string, items: FixtureItem[], version: '1' | '1.1' = '1.1'): string {
  return JSON.stringify({
    version: `https://jsonfeed.org/version/${version}`,
    title,
    items: items.map((i) => ({
      id: i.id,
      ...(i.url ? { url: i.url } : {}),
      ...(i.title ? { title: i.title } : {}),
      ...(i.html ? { content_html: i.html } : {}),
      ...(i.text ? { content_text: i.text } : {}),
      ...(i.image ? { image: i.image } : {}),
      ...(i.date ? { date_published: i.date } : {}),
      ...(i.authors
        ? version === '1.1'
          ? { authors: i.authors.map((name) => ({ name })) }
          : { author: { name: i.authors[0] } }
        : {}),
    })),
  });
}

/** RSS 2.0 with media:content images and dc:creator authors. */
export function rssFeed(title: string, items: FixtureItem[]): string {
  const entries = items.map((i) =>
    [
      '<item>',
      i.title ? `<title>${esc(i.title)}</title>` : '',
      i.url ? `<link>${esc(i.url)}</link>` : '',
      `<guid isPermaLink="false">${esc(i.id)}</guid>`,
      i.date ? `<pubDate>${new Date(i.date).toUTCString()}</pubDate>` : '',
      ...(i.authors ?? []).map((a) => `<dc:creator>${esc(a)}</dc:creator>`),
      i.html ? `<description>${esc(i.html)}</description>` : '',
      i.image ? `<media:content url="${esc(i.image)}" medium="image"/>` : '',
      '</item>',
    ].join(''),
  );
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>${esc(title)}</title><link>http://feeds.example/</link><description>${esc(title)}</description>${entries.join('')}</channel></rss>`;
}

/** Atom 1.0 with enclosure-link images. */
export function atomFeed(title: string, items: FixtureItem[]): string {
  const entries = items.map((i) =>
    [
      '<entry>',
      `<id>${esc(i.id)}</id>`,
      `<title>${esc(i.title ?? '')}</title>`,
      i.url ? `<link rel="alternate" href="${esc(i.url)}"/>` : '',
      i.image ? `<link rel="enclosure" type="image/svg+xml" href="${esc(i.image)}"/>` : '',
      i.date ? `<published>${i.date}</published><updated>${i.date}</updated>` : '',
      ...(i.authors ?? []).map((a) => `<author><name>${esc(a)}</name></author>`),
      i.html ? `<summary type="html">${esc(i.html)}</summary>` : '',
      '</entry>',
    ].join(''),
  );
  return `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test:${esc(title)}</id><title>${esc(title)}</title><updated>2026-01-01T00:00:00Z</updated>${entries.join('')}</feed>`;
}

/**
 * A JSON Feed of one item whose `field` is `unit` repeated until the document is `bytes` long
 * (give or take a unit): a hostile feed at the size cap.
 */
export function repeatedJsonFeed(
  field: 'title' | 'content_text' | 'content_html',
  unit: string,
  bytes: number,
): string {
  const doc = (n: number) =>
    JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Repeated',
      items: [
        {
          id: 'repeated-1',
          url: 'https://news.example/repeated-1',
          title: 'Repeated item',
          [field]: unit.repeat(n),
        },
      ],
    });
  return doc(Math.floor((bytes - doc(0).length) / Buffer.byteLength(unit)));
}

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Brave Search API's web search (`GET /res/v1/web/search`), speaking
 * its protocol: the `X-Subscription-Token` header, `q` with `site:` operators (several joined by
 * OR), `count` (1–20), `offset` (0–9, in pages of `count`), `freshness` (`pd`, `pw`, `pm`, `py`
 * or `YYYY-MM-DDtoYYYY-MM-DD`), and `text_decorations`. It answers
 * `{ type: 'search', query: { original, more_results_available }, web: { type: 'search', results } }`
 * with results as Brave writes them (`title`, `url`, `description` with `<strong>` around the
 * query's words, `page_age`, `age`, `meta_url`), and Brave's error shape. It searches the
 * documents it is given by plain word match. It records every request and can be told to fail.
 */

export type BraveDocument = {
  title: string;
  url: string;
  description: string;
  /** ISO date-time of the page, as Brave's `page_age`; none when undated. */
  pageAge?: string;
};

export type BraveRequest = { params: Record<string, string>; headers: IncomingMessage['headers'] };

export type BraveFailure = { status: number; headers?: Record<string, string> };

export type BraveServer = {
  /** http://127.0.0.1:<port>, for GEM_BRAVE_BASE_URL. */
  origin: string;
  token: string;
  setDocuments(documents: BraveDocument[]): void;
  /** Every later request fails with this status (null: answer again). */
  failWith(failure: BraveFailure | null): void;
  requests(): BraveRequest[];
  close(): Promise<void>;
};

const DAY = 24 * 60 * 60 * 1000;
const FRESHNESS_DAYS: Record<string, number> = { pd: 1, pw: 7, pm: 31, py: 365 };
const RANGE = /^(\d{4}-\d{2}-\d{2})to(\d{4}-\d{2}-\d{2})$/;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function errorBody(status: number, code: string, detail: string) {
  return JSON.stringify({
    type: 'ErrorResponse',
    error: { id: randomUUID(), status, code, detail, meta: { component: 'api' } },
    time: Math.floor(Date.now() / 1000),
  });
}

function ageOf(pageAge: string, now: number): string {
  const days = Math.floor((now - Date.parse(pageAge)) / DAY);
  return days <= 0 ? 'today' : days === 1 ? '1 day ago' : `${days} days ago`;
}

function trimParentheses(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && token[start] === '(') start += 1;
  while (end > start && token[end - 1] === ')') end -= 1;
  return token.slice(start, end);
}

/** Reads `q`: the site: hosts (joined by OR, in parentheses or not), -excluded words, the rest. */
function readQuery(q: string) {
  const sites: string[] = [];
  const words: string[] = [];
  const excluded: string[] = [];
  for (const raw of q.split(/\s+/)) {
    const token = trimParentheses(raw);
    if (token === '' || token === 'OR' || token === 'AND') continue;
    if (token.startsWith('site:')) sites.push(token.slice(5).toLowerCase());
    else if (token.startsWith('-') && token.length > 1)
      excluded.push(token.slice(1).replace(/"/g, '').toLowerCase());
    else words.push(token.replace(/"/g, '').toLowerCase());
  }
  return { sites, words: words.filter(Boolean), excluded };
}

export async function startBraveServer({ token = 'test-brave-token' } = {}): Promise<BraveServer> {
  let documents: BraveDocument[] = [];
  let failure: BraveFailure | null = null;
  const seen: BraveRequest[] = [];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const params = Object.fromEntries(url.searchParams);
    seen.push({ params, headers: req.headers });
    const send = (status: number, body: string, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);

    if (req.method !== 'GET' || url.pathname !== '/res/v1/web/search') {
      send(404, errorBody(404, 'RESOURCE_NOT_FOUND', 'Resource not found.'));
      return;
    }
    if (req.headers['x-subscription-token'] !== token) {
      send(401, errorBody(401, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.'));
      return;
    }
    if (failure) {
      const body =
        failure.status === 429
          ? errorBody(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.')
          : errorBody(failure.status, 'UNKNOWN', 'Unexpected error.');
      send(failure.status, body, failure.headers);
      return;
    }
    const q = params.q ?? '';
    const count = Number(params.count ?? '20');
    const offset = Number(params.offset ?? '0');
    const freshness = params.freshness;
    const range = freshness ? RANGE.exec(freshness) : null;
    const problems: string[] = [];
    if (q.trim() === '' || q.length > 400) problems.push('q');
    if (!Number.isInteger(count) || count < 1 || count > 20) problems.push('count');
    if (!Number.isInteger(offset) || offset < 0 || offset > 9) problems.push('offset');
    if (freshness && !(freshness in FRESHNESS_DAYS) && !range) problems.push('freshness');
    if (problems.length > 0) {
      send(
        422,
        errorBody(422, 'VALIDATION', `Unable to validate request parameter(s): ${problems.join(', ')}`),
      );
      return;
    }

    const now = Date.now();
    const { sites, words, excluded } = readQuery(q);
    let from = -Infinity;
    let to = Infinity;
    if (freshness && freshness in FRESHNESS_DAYS) from = now - FRESHNESS_DAYS[freshness]! * DAY;
    if (range) {
      from = Date.parse(`${range[1]}T00:00:00Z`);
      to = Date.parse(`${range[2]}T23:59:59.999Z`);
    }
    const matches = documents.filter((doc) => {
      const host = new URL(doc.url).hostname.toLowerCase();
      const text = `${doc.title} ${doc.description}`.toLowerCase();
      if (sites.length > 0 && !sites.some((s) => host === s || host.endsWith(`.${s}`))) return false;
      if (!words.every((w) => text.includes(w)) || excluded.some((w) => text.includes(w))) return false;
      if (freshness) {
        const at = doc.pageAge ? Date.parse(doc.pageAge) : NaN;
        if (!(at >= from && at <= to)) return false;
      }
      return true;
    });
    const page = matches.slice(offset * count, offset * count + count);
    const decorate = params.text_decorations !== 'false' && params.text_decorations !== '0';
    const describe = (text: string) => {
      const escaped = escapeHtml(text);
      if (!decorate) return escaped;
      return escaped.replace(/[\p{L}\p{N}]+/gu, (word) =>
        words.some((w) => word.toLowerCase().startsWith(w)) ? `<strong>${word}</strong>` : word,
      );
    };
    send(
      200,
      JSON.stringify({
        type: 'search',
        query: {
          original: q,
          more_results_available: matches.length > (offset + 1) * count,
          spellcheck_off: true,
        },
        mixed: { type: 'mixed', main: page.map((_, index) => ({ type: 'web', index, all: false })) },
        web: {
          type: 'search',
          family_friendly: true,
          results: page.map((doc) => {
            const u = new URL(doc.url);
            return {
              type: 'search_result',
              subtype: 'generic',
              title: doc.title,
              url: doc.url,
              description: describe(doc.description),
              is_source_local: false,
              is_source_both: false,
              family_friendly: true,
              language: 'pl',
              ...(doc.pageAge ? { page_age: doc.pageAge, age: ageOf(doc.pageAge, now) } : {}),
              meta_url: {
                scheme: u.protocol.replace(':', ''),
                netloc: u.host,
                hostname: u.hostname,
                favicon: `https://imgs.search.brave.com/favicon/${u.hostname}`,
                path: u.pathname === '/' ? '' : `› ${u.pathname.split('/').filter(Boolean).join(' › ')}`,
              },
            };
          }),
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    token,
    setDocuments: (docs) => {
      documents = docs;
    },
    failWith: (f) => {
      failure = f;
    },
    requests: () => [...seen],
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

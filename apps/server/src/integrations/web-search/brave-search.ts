import type { CompetitorSearchItem, SnippetPart } from '@gem/contracts/competitor-search';
import { AppError } from '../../lib/app-error';
import {
  displayLinkOf,
  competitorOf,
  type WebSearch,
  type WebSearchPage,
  type WebSearchRequest,
} from './web-search';

/**
 * The Brave Search API (issue 13), for firms that want the open web: one GET of
 * `/res/v1/web/search` per page, restricted to the competitors' hosts with `site:`, the window as
 * `freshness`, paged with `offset` (in pages of `count`, at most 9). Brave has no sort by date:
 * with sort=date a page's results are put in date order. It gives no total either: the total
 * is what has been seen so far, and the next page is offered while Brave says there is more.
 */

export type BraveOptions = {
  apiKey: string;
  /** e.g. https://api.search.brave.com */
  baseUrl: string;
  /** One request, default 10 s. */
  timeoutMs?: number;
};

const MAX_OFFSET = 9;
const MAX_COUNT = 20;

type BraveResult = {
  title?: unknown;
  url?: unknown;
  description?: unknown;
  page_age?: unknown;
  meta_url?: { hostname?: unknown };
};

type BraveAnswer = {
  query?: { more_results_available?: unknown };
  web?: { results?: unknown };
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Brave's display text: HTML entities decoded, tags dropped; `<strong>` marks the query's words. */
function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Splits Brave's decorated text into plain parts; no tag survives. */
export function braveSnippetParts(html: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let at = 0;
  const push = (raw: string) => {
    const text = decode(raw);
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.match === match) last.text += text;
    else parts.push({ text, match });
  };
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      push(html.slice(at));
      break;
    }
    push(html.slice(at, open));
    const close = html.indexOf('>', open);
    if (close === -1) break;
    const tag = html
      .slice(open + 1, close)
      .trim()
      .toLowerCase();
    if (tag === 'strong' || tag === 'b') match = true;
    else if (tag === '/strong' || tag === '/b') match = false;
    at = close + 1;
  }
  return parts;
}

const plain = (html: string) =>
  braveSnippetParts(html)
    .map((p) => p.text)
    .join('');

const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** Brave's freshness for GEM's window: its own words for a day and a week, else a date range. */
export function freshnessOf(request: Pick<WebSearchRequest, 'since' | 'windowDays' | 'now'>): string | null {
  if (!request.since || request.windowDays === null) return null;
  if (request.windowDays === 1) return 'pd';
  if (request.windowDays === 7) return 'pw';
  return `${ymd(request.since)}to${ymd(request.now)}`;
}

/** `(site:a OR site:b)`: the competitors' hosts (Brave's site: takes a domain). */
export function siteRestriction(request: Pick<WebSearchRequest, 'competitors'>): string {
  const hosts = [...new Set(request.competitors.map((c) => new URL(c.site).hostname))];
  const sites = hosts.map((h) => `site:${h}`);
  return sites.length === 1 ? sites[0]! : `(${sites.join(' OR ')})`;
}

function failure(status: number, headers: Headers): AppError {
  if (status === 401 || status === 403) {
    return new AppError(
      502,
      'internal_error',
      "The web search service refused GEM's key. Ask your administrator to check the web search connection.",
    );
  }
  if (status === 429) {
    const reset = Number((headers.get('x-ratelimit-reset') ?? '').split(',')[0]);
    const wait = Number.isFinite(reset) && reset > 0 ? Math.min(Math.ceil(reset), 3600) : 60;
    return new AppError(
      503,
      'service_unavailable',
      `The web search service is busy. Try again in ${wait} seconds.`,
      wait,
    );
  }
  if (status >= 500) {
    return new AppError(
      503,
      'service_unavailable',
      'The web search service is not answering. Try again in a minute.',
      60,
    );
  }
  return new AppError(502, 'internal_error', `The web search service refused the search (HTTP ${status}).`);
}

export function createBraveSearch({ apiKey, baseUrl, timeoutMs = 10_000 }: BraveOptions): WebSearch {
  const endpoint = `${baseUrl}/res/v1/web/search`;
  return {
    provider: 'brave',
    async search(request: WebSearchRequest, signal?: AbortSignal): Promise<WebSearchPage> {
      // Brave pages in steps of `count`: a start that is not on a page edge reads a wider page.
      const skip = request.start - 1;
      const count = skip % request.num === 0 ? request.num : MAX_COUNT;
      const offset = Math.floor(skip / count);
      if (offset > MAX_OFFSET || request.competitors.length === 0) {
        return { items: [], totalResults: skip, nextStart: null };
      }
      const params = new URLSearchParams({
        q: `${request.text} ${siteRestriction(request)}`,
        count: String(count),
        offset: String(offset),
        country: 'PL',
        search_lang: 'pl',
        spellcheck: 'false',
        result_filter: 'web',
      });
      const freshness = freshnessOf(request);
      if (freshness) params.set('freshness', freshness);

      let response: Response;
      try {
        const timeout = AbortSignal.timeout(timeoutMs);
        response = await fetch(`${endpoint}?${params}`, {
          headers: { accept: 'application/json', 'x-subscription-token': apiKey },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        if (signal?.aborted) throw err;
        throw new AppError(
          503,
          'service_unavailable',
          'The web search service is not answering. Try again in a minute.',
          60,
          {
            cause: err,
          },
        );
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw failure(response.status, response.headers);
      }
      let answer: BraveAnswer;
      try {
        answer = (await response.json()) as BraveAnswer;
      } catch (err) {
        throw new AppError(
          502,
          'internal_error',
          'The web search service gave an answer GEM cannot read.',
          undefined,
          {
            cause: err,
          },
        );
      }
      const results = Array.isArray(answer.web?.results) ? (answer.web.results as BraveResult[]) : [];
      const within = skip - offset * count;
      let items: CompetitorSearchItem[] = results.flatMap((r) => {
        if (typeof r.url !== 'string' || !/^https?:\/\//i.test(r.url)) return [];
        const description = typeof r.description === 'string' ? r.description : '';
        const snippetParts = braveSnippetParts(description);
        const published = typeof r.page_age === 'string' ? new Date(r.page_age) : null;
        return [
          {
            title: typeof r.title === 'string' ? plain(r.title) : r.url,
            displayLink: displayLinkOf(r.url),
            snippet: snippetParts.map((p) => p.text).join(''),
            link: r.url,
            snippetParts,
            publishedAt: published && !Number.isNaN(published.getTime()) ? published.toISOString() : null,
            competitorKey: competitorOf(r.url, request.competitors)?.key ?? null,
            sample: false,
          },
        ];
      });
      items = items.slice(within, within + request.num);
      if (request.sort === 'date') {
        items.sort((a, b) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? ''));
      }
      const more = answer.query?.more_results_available === true || results.length > within + request.num;
      const seen = skip + items.length;
      return {
        items,
        totalResults: seen,
        nextStart: more && items.length > 0 && offset < MAX_OFFSET ? seen + 1 : null,
      };
    },
  };
}

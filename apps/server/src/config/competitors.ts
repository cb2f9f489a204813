import { z } from 'zod';
import { appPath } from './app-dir';
import { booleanString, httpUrl, positiveInt, readJsonFile } from './env-values';

/**
 * Competitor search (issue 13): the competitors file, the crawl of their Polish sites, and
 * which search service answers (GEM's own index, or the Brave Search API).
 */

const defaultCompetitorsFile = appPath('competitor-samples/competitors.json');

export const searchProviders = ['index', 'brave'] as const;

export const competitorsEnv = z.object({
  GEM_COMPETITORS_FILE: z.string().min(1).optional(),
  GEM_COMPETITORS_CRAWL: booleanString.default(false),
  GEM_COMPETITORS_CRAWL_MINUTES: positiveInt(7 * 24 * 60).default(360),
  GEM_COMPETITORS_CRAWL_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS: booleanString.default(false),
  GEM_COMPETITORS_MAX_PAGES_PER_ROUND: positiveInt(100_000).default(300),
  GEM_SEARCH_PROVIDER: z
    .enum(searchProviders, { error: `must be one of ${searchProviders.join(', ')}` })
    .default('index'),
  GEM_BRAVE_API_KEY: z.string().min(1).max(4096).optional(),
  GEM_BRAVE_BASE_URL: httpUrl.default('https://api.search.brave.com'),
});

export type CompetitorsEnv = z.infer<typeof competitorsEnv>;

export type Competitor = {
  key: string;
  name: string;
  /** https URL of the Polish site path, ending with '/' */
  site: string;
};

/** The competitors and their crawl; see README "Competitor search". */
export type CompetitorsConfig = {
  /** GEM_COMPETITORS_FILE, or the bundled competitors.json (the spec's six). */
  file: string;
  list: Competitor[];
  /** GEM_COMPETITORS_CRAWL: crawl at start and every crawlMinutes. */
  crawl: boolean;
  crawlMinutes: number;
  /** The pause between two requests to one host. */
  crawlDelayMs: number;
  /** Let the crawler reach loopback, private and link-local addresses (tests, local hosts). */
  allowPrivateHosts: boolean;
  /** Per competitor and round. */
  maxPagesPerRound: number;
};

/** Which service answers competitor searches. */
export type SearchConfig = {
  provider: 'index' | 'brave';
  brave: { apiKey: string; baseUrl: string } | null;
};

export function competitorsConfig(e: CompetitorsEnv, problems: string[]): CompetitorsConfig {
  const file = e.GEM_COMPETITORS_FILE ?? defaultCompetitorsFile;
  return {
    file,
    list: readCompetitorsFile(file, problems),
    crawl: e.GEM_COMPETITORS_CRAWL,
    crawlMinutes: e.GEM_COMPETITORS_CRAWL_MINUTES,
    crawlDelayMs: e.GEM_COMPETITORS_CRAWL_DELAY_MS,
    allowPrivateHosts: e.GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS,
    maxPagesPerRound: e.GEM_COMPETITORS_MAX_PAGES_PER_ROUND,
  };
}

export function searchConfig(e: CompetitorsEnv, problems: string[]): SearchConfig {
  if (e.GEM_SEARCH_PROVIDER === 'index') return { provider: 'index', brave: null };
  if (!e.GEM_BRAVE_API_KEY) {
    problems.push('GEM_BRAVE_API_KEY: is required with GEM_SEARCH_PROVIDER=brave');
  }
  return {
    provider: 'brave',
    brave: { apiKey: e.GEM_BRAVE_API_KEY ?? '', baseUrl: withoutTrailingSlashes(e.GEM_BRAVE_BASE_URL) },
  };
}

const withoutTrailingSlashes = (url: string) => {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end -= 1;
  return url.slice(0, end);
};

const KEY = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * Reads the competitors file: a JSON array of { key, name, site }. Every problem is pushed as
 * "GEM_COMPETITORS_FILE (file): …". A site is normalized to end with '/', so "under the site"
 * is a plain prefix test.
 */
export function readCompetitorsFile(file: string, problems: string[]): Competitor[] {
  const where = `GEM_COMPETITORS_FILE (${file})`;
  const raw = readJsonFile(file, where, problems);
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push(`${where}: must be a JSON array of { "key", "name", "site" } objects, at least one`);
    return [];
  }
  const list: Competitor[] = [];
  const keys = new Set<string>();
  const sites = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const at = `${where}: entry ${i + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at} must be an object with "key", "name" and "site"`);
      return;
    }
    const { key, name, site } = entry as Record<string, unknown>;
    const before = problems.length;
    if (typeof key !== 'string' || !KEY.test(key)) {
      problems.push(`${at}: "key" must be lower-case letters, digits and '-', e.g. "deloitte"`);
    } else if (keys.has(key)) {
      problems.push(`${at}: the key "${key}" is listed twice`);
    }
    if (typeof name !== 'string' || name.trim() === '' || name.length > 100) {
      problems.push(`${at}: "name" must be the competitor's name (1 to 100 characters)`);
    }
    const url = typeof site === 'string' ? siteUrl(site) : undefined;
    if (!url) {
      problems.push(
        `${at}: "site" must be an http(s) address of the site's path, with no user, query or fragment, e.g. "https://www.deloitte.com/pl/pl/"`,
      );
    } else if (sites.has(url)) {
      problems.push(`${at}: the site ${url} is listed twice`);
    }
    if (problems.length > before || !url) return;
    keys.add(key as string);
    sites.add(url);
    list.push({ key: key as string, name: (name as string).trim(), site: url });
  });
  return list;
}

/** The site as GEM keeps it (path ending with '/'), or undefined when it is not a usable address. */
function siteUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

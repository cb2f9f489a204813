import { existsSync } from 'node:fs';
import path from 'node:path';
import { readJsonFile } from '../../config/env-values';

/**
 * The feeds file (GEM_FEEDS_FILE): one flat JSON object whose keys are an area slug
 * ("technology") or an area and sub-area ("priority-clients/orlen") and whose values are
 * feed URLs, http(s) or `gem-sample:<file>` (a bundled sample document). Keys starting
 * with "$" are comments. It is read once at start (config/feeds.ts); a bad entry stops the start.
 */

export type FeedSource = {
  /** "area" or "area/sub-area". */
  key: string;
  url: string;
};

export const SAMPLE_SCHEME = 'gem-sample:';

const SAMPLE_FILE = /^[a-z0-9][a-z0-9_-]*\.(?:json|xml|rss|atom)$/;

export const isSampleUrl = (url: string) => url.startsWith(SAMPLE_SCHEME);

/** The bundled file a `gem-sample:` URL names, in the samples folder (apps/server/feed-samples). */
export function sampleFilePath(url: string, samplesDir: string): string | undefined {
  const name = url.slice(SAMPLE_SCHEME.length);
  return SAMPLE_FILE.test(name) ? path.join(samplesDir, name) : undefined;
}

/**
 * Reads and checks the feeds file's form and URLs. Problems are pushed as "GEM_FEEDS_FILE: …"
 * lines. Whether the keys are market areas is the market-research module's check.
 */
export function readFeedsFile(file: string, samplesDir: string, problems: string[]): FeedSource[] {
  const where = `GEM_FEEDS_FILE (${file})`;
  const raw = readJsonFile(file, where, problems);
  if (raw === undefined) return [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`${where}: must be one JSON object of "area" or "area/sub-area" keys and feed URLs`);
    return [];
  }
  const sources: FeedSource[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key.startsWith('$')) continue;
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${where}: "${key}" must be a feed URL`);
      continue;
    }
    const url = value.trim();
    if (isSampleUrl(url)) {
      const sample = sampleFilePath(url, samplesDir);
      if (!sample || !existsSync(sample)) {
        problems.push(`${where}: "${key}": ${url} is not one of the bundled sample feeds`);
        continue;
      }
    } else {
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        parsed = undefined;
      }
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
        problems.push(`${where}: "${key}": ${url} must be an http:// or https:// URL`);
        continue;
      }
      if (parsed.username || parsed.password) {
        problems.push(`${where}: "${key}": put no user name or password in a feed URL`);
        continue;
      }
    }
    sources.push({ key, url });
  }
  return sources;
}

/**
 * Where feed item images may load from (the CSP's img-src). Real feeds link images on any
 * host, so https: is allowed once one is configured; http: only with private hosts allowed
 * (local feed hosts). The bundled samples' images are GEM's own ('self').
 */
export function feedImageSources(sources: readonly FeedSource[], allowPrivateHosts: boolean): string[] {
  if (sources.every((s) => isSampleUrl(s.url))) return [];
  return allowPrivateHosts ? ['https:', 'http:'] : ['https:'];
}

import { z } from 'zod';
import { readFeedsFile, type FeedSource } from '../integrations/feeds/feeds-file';
import { appPath } from './app-dir';
import { booleanString, positiveInt } from './env-values';

/** Market Research feeds: the feeds file, how often they are read, how long items are kept. */

const defaultFeedSamplesDir = appPath('feed-samples');

export const feedsEnv = z.object({
  GEM_FEEDS_FILE: z.string().min(1).optional(),
  GEM_FEEDS_REFRESH_MINUTES: positiveInt(24 * 60).default(15),
  GEM_FEEDS_RETENTION_DAYS: positiveInt(3650).default(90),
  GEM_FEEDS_ALLOW_PRIVATE_HOSTS: booleanString.default(false),
});

export type FeedsEnv = z.infer<typeof feedsEnv>;

/** Market Research feeds; see README "Market Research feeds". */
export type FeedsConfig = {
  /** The feeds file read at start: GEM_FEEDS_FILE, or the bundled samples' feeds.json. */
  file: string;
  /** The feeds file's entries: area or area/sub-area → URL. */
  sources: FeedSource[];
  /** Where `gem-sample:` documents and the default feeds file are. */
  samplesDir: string;
  refreshMinutes: number;
  retentionDays: number;
  /** Let feeds be read from loopback, private and link-local addresses (tests, local hosts). */
  allowPrivateHosts: boolean;
};

/**
 * Reads the feeds file once. Whether its keys name market areas is the market-research
 * module's check (market-feed-keys.ts), handed to parseConfig by the composition roots.
 */
export function feedsConfig(e: FeedsEnv, problems: string[]): FeedsConfig {
  const file = e.GEM_FEEDS_FILE ?? `${defaultFeedSamplesDir}/feeds.json`;
  return {
    file,
    sources: readFeedsFile(file, defaultFeedSamplesDir, problems),
    samplesDir: defaultFeedSamplesDir,
    refreshMinutes: e.GEM_FEEDS_REFRESH_MINUTES,
    retentionDays: e.GEM_FEEDS_RETENTION_DAYS,
    allowPrivateHosts: e.GEM_FEEDS_ALLOW_PRIVATE_HOSTS,
  };
}

import type { AppAdapters } from '../../adapters';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { AiPlatform } from '../../lib/ai/ai-platform';
import type { Log } from '../../lib/logger';
import type { Scheduler } from '../../lib/scheduler';

/** What every part of the admin area is built from (services.ts hands the same to each). */
export type AdminDeps = {
  db: Db;
  config: Config;
  ai: AiPlatform;
  adapters: AppAdapters;
  scheduler: Scheduler;
  log: Pick<Log, 'error' | 'warn' | 'info'>;
  now?: () => number;
};

import type { AppAdapters } from '../../adapters';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { AiPlatform } from '../../lib/ai/ai-platform';
import type { BrandVoice } from '../../lib/brand-voice/brand-voice';
import type { Log } from '../../lib/logger';
import type { Scheduler } from '../../lib/scheduler';

/** What every part of the admin area is built from (services.ts hands the same to each). */
export type AdminDeps = {
  db: Db;
  config: Config;
  ai: AiPlatform;
  /** The brand profile's versions (services.ts's, the one every generator reads). */
  brandVoice: BrandVoice;
  adapters: AppAdapters;
  scheduler: Scheduler;
  log: Pick<Log, 'error' | 'warn' | 'info'>;
  now?: () => number;
  /**
   * The identity service's side of access (services.ts hands it in): how a person gets in, and
   * dropping a revoked user's remembered decision on this instance. The access part needs it.
   */
  identity?: {
    ruleOf(person: { email: string | null; roles: readonly string[]; granted: boolean; blocked: boolean }): {
      rule: 'admin' | 'list' | 'domain' | 'role' | null;
      isAdmin: boolean;
    };
    forget(userId: string): void;
  };
};

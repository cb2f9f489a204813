import type { CrmConfig } from '../../config/crm';
import type { Db } from '../../db/client';
import type { Crm } from './crm';
import { createEmbeddedCrm } from './embedded/embedded-crm';
import type { Log } from '../../lib/logger';
import { createSalesforceCrm } from './salesforce/salesforce-crm';

/** The CRM adapter GEM_CRM_PROVIDER names: the embedded demo CRM (default) or Salesforce. */
export function createCrm({
  config,
  db,
  log,
}: {
  config: CrmConfig;
  db: Db;
  log: Pick<Log, 'warn' | 'debug'>;
}): Crm {
  if (config.provider === 'salesforce' && config.salesforce) {
    return createSalesforceCrm(config.salesforce, { log, timeoutMs: config.timeoutMs });
  }
  return createEmbeddedCrm({ db });
}

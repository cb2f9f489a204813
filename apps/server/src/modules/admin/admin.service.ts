import { createAdminAccess } from './admin-access.service';
import { createAdminAllowances } from './admin-allowances.service';
import { createAdminBrandVoice } from './admin-brand-voice.service';
import { createAdminAudit } from './admin-audit.service';
import { createAdminIntegrations } from './admin-integrations.service';
import { createAdminUsageStyle } from './admin-usage-style.service';
import { createAdminUsage } from './admin-usage.service';
import type { AdminDeps } from './admin.deps';

/** The admin area (issue 30): one service per part, built from the same deps. */
export function createAdmin(deps: AdminDeps) {
  return {
    access: createAdminAccess(deps),
    usage: createAdminUsage(deps),
    usageStyle: createAdminUsageStyle(deps),
    allowances: createAdminAllowances(deps),
    audit: createAdminAudit(deps),
    integrations: createAdminIntegrations(deps),
    brandVoice: createAdminBrandVoice(deps),
  };
}

export type Admin = ReturnType<typeof createAdmin>;

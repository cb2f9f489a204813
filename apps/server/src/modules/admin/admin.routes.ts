import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAccessRoutes } from './admin-access.routes';
import { adminAllowancesRoutes } from './admin-allowances.routes';
import { adminBrandVoiceRoutes } from './admin-brand-voice.routes';
import { adminAuditRoutes } from './admin-audit.routes';
import { adminIntegrationsRoutes } from './admin-integrations.routes';
import { adminUsageRoutes } from './admin-usage.routes';
import type { Admin } from './admin.service';

/** Every /api/admin route: app.ts registers this in the scope that lets administrators only in. */
export const adminRoutes: FastifyPluginAsyncZod<{ admin: Admin }> = async (app, { admin }) => {
  await app.register(adminAccessRoutes, { service: admin.access });
  await app.register(adminUsageRoutes, { service: admin.usage, style: admin.usageStyle });
  await app.register(adminAllowancesRoutes, { service: admin.allowances });
  await app.register(adminAuditRoutes, { service: admin.audit });
  await app.register(adminIntegrationsRoutes, { service: admin.integrations });
  await app.register(adminBrandVoiceRoutes, { service: admin.brandVoice });
};

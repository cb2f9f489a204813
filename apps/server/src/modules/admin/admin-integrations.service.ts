import type { AdminDeps } from './admin.deps';

/** The admin area's integrations (issue 30). */
export function createAdminIntegrations(deps: AdminDeps) {
  void deps;
  return {};
}

export type AdminIntegrations = ReturnType<typeof createAdminIntegrations>;

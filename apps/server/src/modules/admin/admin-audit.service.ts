import type { AdminDeps } from './admin.deps';

/** The admin area's audit (issue 30). */
export function createAdminAudit(deps: AdminDeps) {
  void deps;
  return {};
}

export type AdminAudit = ReturnType<typeof createAdminAudit>;

import type { AdminDeps } from './admin.deps';

/** The admin area's usage (issue 30). */
export function createAdminUsage(deps: AdminDeps) {
  void deps;
  return {};
}

export type AdminUsage = ReturnType<typeof createAdminUsage>;

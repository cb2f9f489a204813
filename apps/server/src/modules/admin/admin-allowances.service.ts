import type { AdminDeps } from './admin.deps';

/** The admin area's allowances (issue 30). */
export function createAdminAllowances(deps: AdminDeps) {
  void deps;
  return {};
}

export type AdminAllowances = ReturnType<typeof createAdminAllowances>;

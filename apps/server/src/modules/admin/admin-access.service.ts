import type { AdminDeps } from './admin.deps';

/** The admin area's access (issue 30). */
export function createAdminAccess(deps: AdminDeps) {
  void deps;
  return {};
}

export type AdminAccess = ReturnType<typeof createAdminAccess>;

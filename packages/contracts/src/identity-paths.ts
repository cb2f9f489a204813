/**
 * The identity API's paths without zod, so the browser's first chunk can use them without
 * loading zod. `identity.ts` re-exports them beside the schemas.
 */
export const identityPaths = {
  /** Public: how the SPA signs in. */
  authConfig: '/api/identity/auth-config',
  /** Needs a valid access token only (not hasAccess): answers whether the user may use GEM. */
  checkAppAccess: '/api/identity/check-app-access',
} as const;

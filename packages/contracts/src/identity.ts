import { z } from 'zod';

export { identityPaths } from './identity-paths';

/**
 * Sign-in and the access gate (spec §3 "Access check response", §4 "Authentication", §7).
 * The SPA reads the auth config at start to set up oidc-client-ts; every other API call
 * carries the access token it gets.
 */
export const authConfigResponseSchema = z.object({
  /** The OpenID Connect issuer: oidc-client-ts `authority` (discovery is read from it). */
  authority: z.url(),
  /** oidc-client-ts `client_id`: a public client, authorization code flow with PKCE (S256). */
  clientId: z.string().min(1),
  /** oidc-client-ts `scope`: openid, profile, email, offline_access and the API scope. */
  scope: z.string().min(1),
  /**
   * The resource indicator (RFC 8707) for the API. When not null the SPA sends it as
   * `resource` in both extraQueryParams and extraTokenParams; the embedded provider issues
   * JWT access tokens only for a requested resource. Entra ID needs none (null).
   */
  resource: z.string().nullable(),
  /** The audience the API checks in every access token. */
  audience: z.string().min(1),
  /** True when GEM's own provider under /oidc signs people in (local accounts). */
  embedded: z.boolean(),
  /** The three people the Access Denied screen lists (GEM_ACCESS_CONTACTS). */
  accessContacts: z.tuple([z.email(), z.email(), z.email()]),
  /**
   * The embedded provider's demo accounts, shown on /login: only while they are on
   * (GEM_DEMO_ACCOUNTS, a server only this machine can reach); absent otherwise.
   */
  demoAccounts: z
    .array(z.object({ email: z.string().min(1), password: z.string().min(1), label: z.string().min(1) }))
    .optional(),
});
export type AuthConfigResponse = z.infer<typeof authConfigResponseSchema>;

export const checkAppAccessResponseSchema = z.object({
  /** Missing or false means not permitted (spec §3). */
  hasAccess: z.boolean(),
  /** True for GEM's administrators (GEM_ADMIN_EMAILS, GEM_ADMIN_ROLES): the admin area is theirs. */
  isAdmin: z.boolean().optional(),
});
export type CheckAppAccessResponse = z.infer<typeof checkAppAccessResponseSchema>;

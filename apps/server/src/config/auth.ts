import { z } from 'zod';
import { booleanString, httpUrl, listOf } from './env-values';
import type { ServerConfig } from './server';

/** Sign-in (the embedded provider or an external OIDC issuer) and who may use GEM. */

// The domain's first dot is the one after its first character: no two quantifiers share input.
const emailPattern = /^[^\s@,]+@[^\s@,][^\s@,.]*\.[^\s@,]+$/;
const domainPattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const rolePattern = /^[\w.:/-]{1,120}$/;

const isLoopback = (host: string) => ['localhost', '127.0.0.1', '[::1]'].includes(host);
/** GEM_HOST values that only this machine can reach. */
const isLoopbackInterface = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

// Entra's multi-tenant endpoints have no fixed issuer: GEM must be tied to one tenant.
const entraHosts = new Set([
  'login.microsoftonline.com',
  'login.microsoftonline.us',
  'login.partner.microsoftonline.cn',
  'login.chinacloudapi.cn',
]);
const entraSharedTenants = new Set(['common', 'organizations', 'consumers']);

const issuerUrl = httpUrl
  .refine((v) => {
    const u = new URL(v);
    return u.protocol === 'https:' || isLoopback(u.hostname);
  }, 'must use https:// (http:// is accepted for localhost only)')
  .refine((v) => {
    const u = new URL(v);
    const tenant = u.pathname.split('/')[1] ?? '';
    return !(entraHosts.has(u.hostname) && entraSharedTenants.has(tenant.toLowerCase()));
  }, 'must name your tenant, e.g. https://login.microsoftonline.com/<tenant id>/v2.0 (common, organizations and consumers are refused)');

/**
 * GEM_DEV_WEB_ORIGIN: where `npm run dev -w apps/web` serves the SPA (the Vite dev server), a
 * loopback origin such as http://localhost:5173. Only then does the embedded provider accept it
 * as a redirect address, a sign-in page origin and a CORS origin; never in production.
 */
const devWebOrigin = httpUrl
  .refine((v) => {
    if (!URL.canParse(v)) return false;
    const u = new URL(v);
    return isLoopback(u.hostname) && u.pathname === '/' && !u.search && !u.hash && !u.username;
  }, 'must be the origin of the Vite dev server on this machine, e.g. http://localhost:5173')
  .transform((v) => new URL(v).origin);

const defaultAccessContacts = [
  'marketing-ops@example.com',
  'it-servicedesk@example.com',
  'security@example.com',
] as const;

export const authEnv = z.object({
  GEM_OIDC_ISSUER: issuerUrl.optional(),
  GEM_OIDC_CLIENT_ID: z.string().min(1).max(200).optional(),
  GEM_OIDC_SCOPE: z
    .string()
    .regex(/^\S+$/, 'must be one scope, e.g. api://<application id>/access_as_user')
    .optional(),
  GEM_OIDC_AUDIENCE: z.string().min(1).max(300).optional(),
  GEM_OIDC_REQUIRED_SCOPE: z
    .string()
    .regex(/^\S+$/, 'must be one scope name, e.g. access_as_user')
    .optional(),
  GEM_EMBEDDED_IDP: booleanString.optional(),
  GEM_DEMO_ACCOUNTS: booleanString.optional(),
  GEM_DEV_WEB_ORIGIN: devWebOrigin.optional(),
  GEM_ACCESS_CONTACTS: listOf(emailPattern, 'e-mail addresses')
    .refine((list) => list.length === 3, 'must list exactly three e-mail addresses, comma-separated')
    .optional(),
  GEM_ACCESS_ALLOWED_DOMAINS: listOf(domainPattern, 'domain names', (v) => v.toLowerCase()).optional(),
  GEM_ACCESS_REQUIRED_ROLES: listOf(rolePattern, 'role names').optional(),
  GEM_ADMIN_EMAILS: listOf(emailPattern, 'e-mail addresses', (v) => v.toLowerCase()).optional(),
  GEM_ADMIN_ROLES: listOf(rolePattern, 'role names').optional(),
});

export type AuthEnv = z.infer<typeof authEnv>;

/** Where the SPA's tokens come from; see README "Use Microsoft Entra ID". */
export type AuthConfig = {
  /** embedded: GEM's own provider under /oidc; external: GEM_OIDC_ISSUER (Entra ID or any OIDC issuer). */
  mode: 'embedded' | 'external';
  /** The public origin of GEM, e.g. https://gem.example.com. */
  publicUrl: string;
  issuer: string;
  clientId: string;
  /** The API scope the SPA asks for. */
  scope: string;
  /** The `aud` every access token must carry. */
  audience: string;
  requiredScope: string | undefined;
  /** Seed the demo accounts (embedded provider only). */
  demoAccounts: boolean;
  /** GEM_EMBEDDED_IDP=true was set: the embedded provider may run in production. */
  embeddedExplicit: boolean;
  /** GEM_DEV_WEB_ORIGIN: the Vite dev server the embedded provider also accepts (development only). */
  devWebOrigin?: string | undefined;
};

export type AccessConfig = {
  contacts: [string, string, string];
  allowedDomains: string[];
  requiredRoles: string[];
  /** How long a hasAccess decision is reused; a revoked grant takes effect within this. */
  decisionCacheMs: number;
  /** GEM's administrators by e-mail (lower case; GEM_ADMIN_EMAILS, and the demo admin when demo accounts are on). */
  adminEmails: string[];
  /** Token roles that make an administrator (GEM_ADMIN_ROLES, e.g. an Entra app role). */
  adminRoles: string[];
};

/** The demo administrator's e-mail (modules/identity/demo-accounts.ts), an admin while demo accounts are on. */
export const demoAdminEmail = 'admin@example.com';

/** The embedded provider's fixed client and API, which need nothing configured. */
export const embeddedClientId = 'gem-web';
export const embeddedApiScope = 'gem.api';

export function authConfig(
  e: AuthEnv,
  server: Pick<ServerConfig, 'env' | 'host' | 'trustProxy'>,
  publicUrl: string,
  problems: string[],
): AuthConfig {
  const auth = signInConfig(e, server, publicUrl, problems);
  if (auth.mode === 'embedded' && auth.publicUrl.startsWith('https:') && server.trustProxy === false) {
    // GEM speaks plain HTTP, so an https address means a proxy ends TLS; unless GEM trusts it,
    // the embedded provider cannot tell and sends its sign-in cookies without Secure.
    problems.push(
      'GEM_TRUST_PROXY: GEM_PUBLIC_URL is https, so a proxy ends TLS in front of GEM; set GEM_TRUST_PROXY to the number of proxies (e.g. 1) or their addresses',
    );
  }
  return auth;
}

function signInConfig(
  e: AuthEnv,
  server: Pick<ServerConfig, 'env' | 'host'>,
  publicUrl: string,
  problems: string[],
): AuthConfig {
  const production = server.env === 'production';
  const base = { publicUrl, requiredScope: e.GEM_OIDC_REQUIRED_SCOPE };

  if (e.GEM_OIDC_ISSUER) {
    if (e.GEM_EMBEDDED_IDP === true) {
      problems.push('GEM_EMBEDDED_IDP: cannot be true while GEM_OIDC_ISSUER is set; use one or the other');
    }
    if (e.GEM_DEMO_ACCOUNTS === true) {
      problems.push(
        'GEM_DEMO_ACCOUNTS: demo accounts exist only in the embedded provider (GEM_OIDC_ISSUER is set)',
      );
    }
    if (e.GEM_DEV_WEB_ORIGIN) {
      problems.push(
        "GEM_DEV_WEB_ORIGIN: only the embedded provider uses it (GEM_OIDC_ISSUER is set); register the dev server's address with your identity provider instead",
      );
    }
    for (const name of ['GEM_OIDC_CLIENT_ID', 'GEM_OIDC_SCOPE', 'GEM_OIDC_AUDIENCE'] as const) {
      if (!e[name]) problems.push(`${name}: is required when GEM_OIDC_ISSUER is set`);
    }
    return {
      ...base,
      mode: 'external',
      issuer: e.GEM_OIDC_ISSUER,
      clientId: e.GEM_OIDC_CLIENT_ID ?? '',
      scope: e.GEM_OIDC_SCOPE ?? '',
      audience: e.GEM_OIDC_AUDIENCE ?? '',
      demoAccounts: false,
      embeddedExplicit: false,
    };
  }

  // Half an external set-up must not fall back to the embedded provider silently.
  for (const name of ['GEM_OIDC_CLIENT_ID', 'GEM_OIDC_SCOPE', 'GEM_OIDC_AUDIENCE'] as const) {
    if (e[name])
      problems.push(`${name}: is set but GEM_OIDC_ISSUER is not; set the issuer too, or unset ${name}`);
  }
  if (e.GEM_EMBEDDED_IDP === false) {
    problems.push('GEM_EMBEDDED_IDP: is false, so GEM_OIDC_ISSUER must name your identity provider');
  } else if (production && e.GEM_EMBEDDED_IDP !== true) {
    problems.push(
      'GEM_OIDC_ISSUER: is required when NODE_ENV=production (or set GEM_EMBEDDED_IDP=true to run the embedded provider in production on purpose)',
    );
  }
  if (production && e.GEM_DEV_WEB_ORIGIN) {
    problems.push(
      'GEM_DEV_WEB_ORIGIN: the Vite dev server is for development; it is refused when NODE_ENV=production',
    );
  }
  if (production && e.GEM_DEMO_ACCOUNTS === true) {
    problems.push(
      'GEM_DEMO_ACCOUNTS: the demo accounts have published passwords and are refused when NODE_ENV=production',
    );
  }
  return {
    ...base,
    mode: 'embedded',
    issuer: `${publicUrl}/oidc`,
    clientId: embeddedClientId,
    scope: embeddedApiScope,
    audience: `${publicUrl}/api`,
    // Known passwords: only on a machine nobody else reaches, unless asked for outside production.
    demoAccounts: e.GEM_DEMO_ACCOUNTS ?? (!production && isLoopbackInterface(server.host)),
    embeddedExplicit: e.GEM_EMBEDDED_IDP === true,
    devWebOrigin: production ? undefined : e.GEM_DEV_WEB_ORIGIN,
  };
}

export function accessConfig(e: AuthEnv, auth: Pick<AuthConfig, 'demoAccounts'>): AccessConfig {
  const adminEmails = e.GEM_ADMIN_EMAILS ?? [];
  return {
    contacts: (e.GEM_ACCESS_CONTACTS ?? [...defaultAccessContacts]) as [string, string, string],
    allowedDomains: e.GEM_ACCESS_ALLOWED_DOMAINS ?? [],
    requiredRoles: e.GEM_ACCESS_REQUIRED_ROLES ?? [],
    decisionCacheMs: 60_000,
    adminEmails: auth.demoAccounts ? [...new Set([...adminEmails, demoAdminEmail])] : adminEmails,
    adminRoles: e.GEM_ADMIN_ROLES ?? [],
  };
}

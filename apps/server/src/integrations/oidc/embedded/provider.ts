import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { messagePage, signOutPage } from './pages';
import type { LocalAccounts } from './local-accounts';
import type { ProviderSecrets } from './secrets';
import type { createAdapterFactory } from './adapter';

export type EmbeddedProviderOptions = {
  /** `<public origin>/oidc` */
  issuer: string;
  publicUrl: string;
  clientId: string;
  /** The API: its resource indicator doubles as the access tokens' audience. */
  audience: string;
  apiScope: string;
  /** Extra SPA origins allowed to sign in (the Vite dev server). */
  extraWebOrigins: string[];
  secrets: ProviderSecrets;
  accounts: LocalAccounts;
  adapter: ReturnType<typeof createAdapterFactory>;
  trustProxy: false | number | string[];
};

const HOUR = 60 * 60;
const SESSION_TTL = 8 * HOUR;
const REFRESH_TOKEN_TTL = 7 * 24 * HOUR;
const OIDC_SCOPES = 'openid profile email offline_access';

/**
 * GEM's embedded OpenID provider: one public client (the SPA) using the authorization code
 * flow with PKCE (S256), JWT access tokens for the API audience (RFC 8707 resource
 * indicators, RFC 9068 `at+jwt`), rotating refresh tokens, no consent step for GEM's own
 * client, and GEM's own sign-in, sign-out and error pages.
 */
export function createEmbeddedProvider(opts: EmbeddedProviderOptions): Provider {
  const webOrigins = [opts.publicUrl, ...opts.extraWebOrigins];
  const siteRoots = webOrigins.map((origin) => `${origin}/`);

  const configuration: Configuration = {
    adapter: opts.adapter,
    clients: [
      {
        client_id: opts.clientId,
        client_name: 'GEM',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: siteRoots,
        post_logout_redirect_uris: siteRoots,
        id_token_signed_response_alg: 'ES256',
      },
    ],
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    jwks: { keys: opts.secrets.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: {
      keys: opts.secrets.cookieKeys,
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'offline_access', 'email', 'profile'],
    pkce: { required: () => true },
    responseTypes: ['code'],
    enabledJWA: {
      idTokenSigningAlgValues: ['ES256'],
      userinfoSigningAlgValues: ['ES256'],
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          // GEM's own sign-out (it proved itself with a valid id_token_hint) goes straight
          // through; anything else asks first, so a link cannot sign someone out.
          const auto =
            ctx.oidc.client?.clientId === opts.clientId && ctx.oidc.entities.IdTokenHint !== undefined;
          ctx.type = 'html';
          ctx.body = signOutPage({ form, auto, homeUrl: `${opts.publicUrl}/` });
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = messagePage({
            title: 'Signed out',
            message: 'You are signed out of GEM.',
            homeUrl: `${opts.publicUrl}/`,
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        // The SPA should send `resource`; if it does not, it still gets a token for the API.
        defaultResource: async () => opts.audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== opts.audience) throw new errors.InvalidTarget();
          return {
            scope: opts.apiScope,
            audience: opts.audience,
            accessTokenTTL: HOUR,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    ttl: {
      AccessToken: HOUR,
      AuthorizationCode: 60,
      IdToken: HOUR,
      Interaction: 30 * 60,
      Session: SESSION_TTL,
      Grant: REFRESH_TOKEN_TTL,
      // A rotated refresh token keeps the remaining life of the one it replaces.
      RefreshToken: (ctx) => ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? REFRESH_TOKEN_TTL,
    },
    rotateRefreshToken: () => true,
    // offline_access is dropped without prompt=consent (OIDC Core §11), so GEM's client gets
    // its refresh token by policy instead.
    issueRefreshToken: async (_ctx, client) =>
      client.clientId === opts.clientId && client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: (_ctx, origin) => webOrigins.includes(origin),
    interactions: { url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
    // GEM's own client is trusted: no consent screen, its grant is made here.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (client.clientId !== opts.clientId) return existing;
      const grant =
        existing?.accountId === session.accountId
          ? existing
          : new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(OIDC_SCOPES);
      grant.addResourceScope(opts.audience, opts.apiScope);
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx, id) => {
      const account = await opts.accounts.findById(id);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: async () => ({
          sub: account.id,
          email: account.email,
          email_verified: true,
          ...(account.displayName ? { name: account.displayName } : {}),
        }),
      };
    },
    // The API records who called (e-mail, name); JWT access tokens carry them.
    extraTokenClaims: async (_ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await opts.accounts.findById(token.accountId);
      if (!account) return undefined;
      return { email: account.email, ...(account.displayName ? { name: account.displayName } : {}) };
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      const detail = typeof out.error_description === 'string' ? ` (${out.error_description})` : '';
      ctx.body = messagePage({
        title: 'Sign-in could not continue',
        message: `Something about this sign-in request was not right${detail}. Go back to GEM and sign in again.`,
        homeUrl: `${opts.publicUrl}/`,
      });
    },
  };

  const provider = new Provider(opts.issuer, configuration);
  // A hop count bounds which X-Forwarded-For entries koa reads.
  provider.proxy = opts.trustProxy !== false;
  if (typeof opts.trustProxy === 'number') provider.maxIpsCount = opts.trustProxy;
  provider.use(pinnedOrigin(opts.issuer, provider.proxy));
  return provider;
}

/**
 * oidc-provider builds every URL it emits (the discovery document's endpoints, redirects, form
 * actions) on the request's origin, which koa reads from Host, or X-Forwarded-Host and
 * X-Forwarded-Proto behind a proxy: anyone could have them name their own host. GEM's origin is
 * configured, so every request is read as if it came to it: Host is the issuer's, the forwarded
 * host is dropped, and behind a proxy the scheme is the issuer's (which also makes the sign-in
 * cookies Secure exactly when GEM_PUBLIC_URL is https). The discovery document is not cached.
 */
function pinnedOrigin(issuer: string, behindProxy: boolean) {
  const { host, protocol } = new URL(issuer);
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    const headers = ctx.req.headers;
    headers.host = host;
    delete headers['x-forwarded-host'];
    if (':authority' in headers) headers[':authority'] = host;
    if (behindProxy) headers['x-forwarded-proto'] = protocol.slice(0, -1);
    else delete headers['x-forwarded-proto'];
    await next();
    if (ctx.oidc?.route === 'discovery') ctx.set('cache-control', 'no-store');
  };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import providerContext from 'oidc-provider/lib/helpers/als.js';
import type { DeviceCookies } from './device-cookie';
import { MAX_EMAIL_LENGTH, type LocalAccounts } from './local-accounts';
import { assetPaths, messagePage, signInPage, signOutScript, stylesheet } from './pages';
import type { SignInThrottle } from './sign-in-throttle';

export type EmbeddedIdpPluginOptions = {
  provider: Provider;
  accounts: LocalAccounts;
  throttle: SignInThrottle;
  /** The cookies that let a browser that signed in to an account before past its delay. */
  deviceCookies: DeviceCookies;
  publicUrl: string;
  /** Origins whose pages may post the sign-in form (GEM's own, plus the Vite dev server). */
  webOrigins: string[];
  /** Keys the sign-in form's CSRF token. */
  csrfKey: string;
  /**
   * Writes a sign-in attempt to the audit log (issue 30): the e-mail typed, never the password.
   * A failure to write it is logged and does not change the sign-in's answer.
   */
  recordSignIn?: (attempt: SignInAttempt) => Promise<void>;
};

/** A sign-in attempt as the audit log keeps it. */
export type SignInAttempt = {
  succeeded: boolean;
  /** The e-mail typed (as the database can store it). */
  email: string;
  /** Why it failed: a wrong password, an account that does not exist, or too many tries. */
  reason?: 'wrong-password' | 'unknown-account' | 'throttled';
  ip: string;
};

export const EMBEDDED_IDP_PREFIX = '/oidc';
export const INVALID_CREDENTIALS = 'Invalid email or password';

type Body = URLSearchParams | undefined;

/** A wait as the sign-in page says it: "1 second", "45 seconds", "3 minutes". */
export function inWords(seconds: number): string {
  if (seconds < 90) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Mounts the embedded provider under /oidc. GEM's sign-in pages (/oidc/interaction/:uid) and
 * assets (/oidc/assets/...) are Fastify routes; everything else under /oidc goes to
 * oidc-provider untouched (its own body parsing, the /oidc prefix stripped).
 */
export async function embeddedIdpPlugin(app: FastifyInstance, opts: EmbeddedIdpPluginOptions) {
  const { provider, accounts, throttle, deviceCookies } = opts;
  const home = `${opts.publicUrl}/`;
  const csrfFor = (uid: string) =>
    createHmac('sha256', opts.csrfKey).update(`sign-in:${uid}`).digest('base64url');
  const actionFor = (uid: string) => `${EMBEDDED_IDP_PREFIX}/interaction/${encodeURIComponent(uid)}`;

  provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'identity provider error'));
  // Refused sign-in steps, logged by OAuth error code only (never tokens, codes or e-mails).
  const refused = (step: string) => (_ctx: unknown, err: Error & { error?: string }) =>
    app.log.info({ reason: err.error ?? 'unknown', step }, 'sign-in step refused');
  provider.on('authorization.error', refused('authorization'));
  provider.on('grant.error', refused('token'));
  provider.on('end_session.error', refused('sign-out'));

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
  const expired = (reply: FastifyReply) =>
    html(
      reply,
      400,
      messagePage({
        title: 'This sign-in page has expired',
        message: 'Go back to GEM and sign in again.',
        homeUrl: home,
      }),
    );

  async function details(req: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) {
    try {
      const found = await provider.interactionDetails(req.raw, reply.raw);
      return found.uid === req.params.uid ? found : undefined;
    } catch {
      return undefined;
    }
  }

  async function finish(
    req: FastifyRequest,
    reply: FastifyReply,
    result: Parameters<Provider['interactionResult']>[2],
  ) {
    const returnTo = await provider.interactionResult(req.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  }

  // GEM's pages: forms come urlencoded, and nothing else is accepted here.
  await app.register(async (pages) => {
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8 * 1024 },
      (_req, body, done) => done(null, new URLSearchParams(String(body))),
    );

    const asset = (type: string, body: string) => (_req: FastifyRequest, reply: FastifyReply) =>
      reply.type(type).header('cache-control', 'public, max-age=31536000, immutable').send(body);
    pages.get(assetPaths.stylesheet, asset('text/css; charset=utf-8', stylesheet));
    pages.get(assetPaths.signOutScript, asset('text/javascript; charset=utf-8', signOutScript));

    pages.get<{ Params: { uid: string } }>(`${EMBEDDED_IDP_PREFIX}/interaction/:uid`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction) return expired(reply);
      if (interaction.prompt.name === 'login') {
        const hint =
          typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined;
        return html(
          reply,
          200,
          signInPage({
            action: actionFor(interaction.uid),
            csrf: csrfFor(interaction.uid),
            ...(hint ? { email: hint } : {}),
          }),
        );
      }
      // Only GEM's own client exists and it needs no consent; a grant normally exists already.
      const accountId = interaction.session?.accountId;
      if (interaction.prompt.name !== 'consent' || !accountId) return expired(reply);
      const grant = new provider.Grant({ accountId, clientId: String(interaction.params.client_id) });
      grant.addOIDCScope(String(interaction.params.scope ?? 'openid'));
      return finish(req, reply, { consent: { grantId: await grant.save() } });
    });

    pages.post<{ Params: { uid: string }; Body: Body }>(
      `${EMBEDDED_IDP_PREFIX}/interaction/:uid`,
      async (req, reply) => {
        const form = req.body;
        const email = (form?.get('email') ?? '').trim().slice(0, MAX_EMAIL_LENGTH);
        const password = form?.get('password') ?? '';
        const csrf = form?.get('csrf') ?? '';
        const origin = req.headers.origin;

        const interaction = await details(req, reply);
        if (!interaction || interaction.prompt.name !== 'login') return expired(reply);
        const expected = Buffer.from(csrfFor(interaction.uid));
        const given = Buffer.from(csrf);
        const csrfOk = given.length === expected.length && timingSafeEqual(given, expected);
        if (!csrfOk || (origin !== undefined && !opts.webOrigins.includes(origin))) {
          req.log.info({ reason: 'csrf_failed' }, 'sign-in refused');
          return expired(reply);
        }

        const audit = async (attempt: Omit<SignInAttempt, 'email' | 'ip'>) => {
          try {
            await opts.recordSignIn?.({ ...attempt, email, ip: req.ip });
          } catch (err) {
            req.log.error({ err }, 'could not write a sign-in to the audit log');
          }
        };
        const page = (status: number, error: string) =>
          html(reply, status, signInPage({ action: actionFor(interaction.uid), csrf, email, error }));
        const address = req.ip;
        const device = deviceCookies.read(req.headers.cookie, email);
        // Counted before the password is checked, so parallel guesses cannot outrun the limit.
        const { wait, knownDevice } = await throttle.reserve(email, address, device);
        if (wait > 0) {
          req.log.info({ reason: 'throttled' }, 'sign-in refused');
          await audit({ succeeded: false, reason: 'throttled' });
          reply.header('retry-after', String(wait));
          return page(429, `Too many failed sign-in attempts. Try again in ${inWords(wait)}.`);
        }
        const account = email && password ? await accounts.authenticate(email, password) : undefined;
        if (!account) {
          req.log.info({ reason: 'invalid_credentials' }, 'sign-in failed');
          // Told apart for the audit log only: the page says the same for both.
          const known = email ? await accounts.findByEmail(email) : undefined;
          await audit({ succeeded: false, reason: known ? 'wrong-password' : 'unknown-account' });
          return page(401, INVALID_CREDENTIALS);
        }
        await throttle.recordSuccess(email, address, { knownDevice, device });
        await audit({ succeeded: true });
        // A new device cookie at each sign-in: this browser is known to this account from now on.
        reply.header('set-cookie', deviceCookies.issue(account.email));
        return finish(req, reply, { login: { accountId: account.id } });
      },
    );
  });

  // The provider itself. It parses its own bodies, so Fastify must leave them unread.
  await app.register(async (oidc) => {
    oidc.removeAllContentTypeParsers();
    oidc.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const callback = provider.callback();
    let inFlight = 0;
    oidc.route({
      method: ['GET', 'POST', 'OPTIONS'],
      url: `${EMBEDDED_IDP_PREFIX}/*`,
      handler: async (req, reply) => {
        // Security headers were set on the raw response in onRequest; the provider adds its own.
        reply.hijack();
        const raw = req.raw as IncomingMessage & { originalUrl?: string };
        raw.originalUrl = raw.url;
        raw.url = (raw.url ?? '/').slice(EMBEDDED_IDP_PREFIX.length) || '/';
        inFlight += 1;
        try {
          await callback(raw, reply.raw);
        } finally {
          inFlight -= 1;
          // The provider keeps its request in an AsyncLocalStorage. On Node 20 and 22, once one
          // has been entered, Node runs async hooks on every promise and socket of the process,
          // every GEM request included, until it is disabled: 8–12% of a short API answer's CPU
          // after the first sign-in (bench/access-gate.md). When no provider request is left,
          // it is disabled; the provider's next request enters it again.
          if (inFlight === 0) providerContext.disable();
        }
      },
    });
  });
}

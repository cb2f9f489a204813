import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { rememberSecret } from './log-capture';

/**
 * A browser's part of the authorization code flow with PKCE against GEM's embedded provider,
 * over real HTTP: the requests oidc-client-ts makes, with a cookie jar, no shortcuts.
 */
export class Browser {
  /** The cookie jar by name: a test may read, change or drop a cookie (the session ending). */
  readonly cookies = new Map<string, string>();
  /**
   * `address`: the client address the proxy in front of GEM reports (X-Forwarded-For; the app
   * needs GEM_TRUST_PROXY), so one test can play clients at several addresses; it may change.
   * `server`: where requests to `origin` really go, when `origin` is a public https URL whose
   * TLS a proxy ends.
   */
  constructor(
    readonly origin: string,
    public opts: { address?: string; server?: string } = {},
  ) {}

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    if (this.opts.address) headers.set('x-forwarded-for', this.opts.address);
    let target = new URL(url, this.origin);
    if (this.opts.server && target.origin === this.origin) {
      target = new URL(`${target.pathname}${target.search}`, this.opts.server);
    }
    const res = await fetch(target, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Follows redirects until one leaves the server (the redirect_uri) or a page answers. */
  async follow(url: string, init: RequestInit = {}): Promise<{ res: Response; url: string }> {
    let res = await this.request(url, init);
    let current = url;
    for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400; hops += 1) {
      const next = new URL(res.headers.get('location') ?? '', new URL(current, this.origin)).toString();
      if (new URL(next).pathname === '/') return { res, url: next };
      current = next;
      res = await this.request(next);
    }
    return { res, url: current };
  }
}

/** A port free on 127.0.0.1 now, so the issuer can name the address before the server listens. */
export async function freePort() {
  return new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export const b64url = (buf: Buffer) => buf.toString('base64url');

export function pkcePair() {
  const verifier = b64url(randomBytes(32));
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export type SignInResult = {
  status: 'signed-in';
  tokens: {
    access_token: string;
    refresh_token?: string;
    id_token?: string;
    expires_in: number;
    scope?: string;
  };
};

export type AuthConfig = { authority: string; clientId: string; scope: string; resource: string | null };

/** Starts a sign-in and returns the provider's sign-in page (HTML) and its form's address. */
export async function openSignInPage(browser: Browser, config: AuthConfig, pkce = pkcePair()) {
  const state = b64url(randomBytes(12));
  const params = new URLSearchParams({
    client_id: config.clientId,
    response_type: 'code',
    redirect_uri: `${browser.origin}/`,
    scope: config.scope,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state,
    nonce: b64url(randomBytes(12)),
    ...(config.resource ? { resource: config.resource } : {}),
  });
  const { res, url } = await browser.follow(`${config.authority}/auth?${params}`);
  const html = await res.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  return { res, html, url, action, csrf, state, pkce };
}

export async function submitSignIn(
  browser: Browser,
  page: { action?: string | undefined; csrf?: string | undefined },
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  rememberSecret('email', email);
  rememberSecret('password', password);
  return browser.follow(page.action ?? '/missing', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: browser.origin, ...headers },
    body: new URLSearchParams({ csrf: page.csrf ?? '', email, password }).toString(),
  });
}

export async function tokenRequest(browser: Browser, config: AuthConfig, form: Record<string, string>) {
  const res = await browser.request(`${config.authority}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: browser.origin },
    body: new URLSearchParams({ client_id: config.clientId, ...form }).toString(),
  });
  const body = (await res.json()) as Record<string, unknown>;
  // Codes, verifiers and tokens, sent and received, must never reach the server's log.
  for (const key of ['code', 'code_verifier', 'refresh_token']) rememberSecret('token', form[key]);
  for (const key of ['access_token', 'refresh_token', 'id_token']) {
    if (typeof body[key] === 'string') rememberSecret('token', body[key]);
  }
  return { status: res.status, body };
}

/** The whole flow: sign in with e-mail and password, exchange the code, return the tokens. */
export async function signIn(browser: Browser, config: AuthConfig, email: string, password: string) {
  const page = await openSignInPage(browser, config);
  const done = await submitSignIn(browser, page, email, password);
  const callback = new URL(done.url);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${done.res.status} ${done.url}`);
  if (callback.searchParams.get('state') !== page.state) throw new Error('state mismatch');
  const token = await tokenRequest(browser, config, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: `${browser.origin}/`,
    code_verifier: page.pkce.verifier,
    ...(config.resource ? { resource: config.resource } : {}),
  });
  if (token.status !== 200) throw new Error(`token endpoint: ${token.status} ${JSON.stringify(token.body)}`);
  return token.body as SignInResult['tokens'];
}

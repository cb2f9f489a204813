// Signs in over HTTP, as a browser does: the authorization code flow with PKCE against the
// embedded provider (the same steps as apps/server/test/embedded-sign-in.ts). For benchmarks
// that need an access token without a browser.
import { createHash, randomBytes } from 'node:crypto';

const b64url = (buf) => buf.toString('base64url');

function cookieJar(origin) {
  const cookies = new Map();
  async function request(url, init = {}) {
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(url, origin), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    return res;
  }
  /** Follows redirects until one comes back to the redirect_uri (the site root) or a page answers. */
  async function follow(url, init = {}) {
    let res = await request(url, init);
    let current = new URL(url, origin).toString();
    for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400; hops += 1) {
      const next = new URL(res.headers.get('location') ?? '', current).toString();
      if (new URL(next).pathname === '/') return { res, url: next };
      current = next;
      res = await request(next);
    }
    return { res, url: current };
  }
  return { request, follow };
}

/** Signs in to the embedded provider (the demo marketer by default) and returns the access token. */
export async function accessTokenFor(origin, email = 'marketer@example.com', password = 'marketer') {
  const config = await (await fetch(`${origin}/api/identity/auth-config`)).json();
  const browser = cookieJar(origin);
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(12));
  const params = new URLSearchParams({
    client_id: config.clientId,
    response_type: 'code',
    redirect_uri: `${origin}/`,
    scope: config.scope,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    nonce: b64url(randomBytes(12)),
    ...(config.resource ? { resource: config.resource } : {}),
  });
  const page = await browser.follow(`${config.authority}/auth?${params}`);
  const html = await page.res.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !csrf) throw new Error(`no sign-in form (${page.res.status} ${page.url})`);
  const done = await browser.follow(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ csrf, email, password }).toString(),
  });
  const callback = new URL(done.url);
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state) throw new Error(`no code: ${done.url}`);
  const res = await browser.request(`${config.authority}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({
      client_id: config.clientId,
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${origin}/`,
      code_verifier: verifier,
      ...(config.resource ? { resource: config.resource } : {}),
    }).toString(),
  });
  const body = await res.json();
  if (res.status !== 200 || typeof body.access_token !== 'string') {
    throw new Error(`token endpoint: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.access_token;
}

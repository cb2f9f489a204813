import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { normalizeEmail } from './local-accounts';

export type DeviceCookieOptions = {
  /** Signs the cookies; the same on every instance (deviceCookieKey). */
  key: Buffer;
  /** The sign-in form's path prefix: the only requests that carry the cookie. */
  path: string;
  /** Whether GEM's public URL is https. */
  secure: boolean;
  maxAgeMs?: number;
  now?: () => number;
};

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser
 * that signed in to an account gets a cookie that lets it past that account's delay the next
 * time, so a guesser can slow new devices down but never the owner's own browser.
 *
 * The cookie is `<nonce>.<expiry, seconds>.<HMAC of e-mail, nonce, expiry>`, one per account
 * (its name is keyed on the e-mail too): it names neither the account nor the person, and
 * nothing is stored for it on the server until it fails (the throttle counts a device's
 * failures by its nonce). It expires after 90 days, told to the browser and checked here.
 */
export function createDeviceCookies(opts: DeviceCookieOptions) {
  const { key, path, secure, maxAgeMs = 90 * 24 * 60 * 60_000, now = Date.now } = opts;
  const mac = (...parts: string[]) => createHmac('sha256', key).update(parts.join('\n')).digest('base64url');
  const nameFor = (email: string) => `gem-device-${mac('name', normalizeEmail(email)).slice(0, 16)}`;

  return {
    /** The nonce of the request's device cookie for this e-mail, when it has a valid one. */
    read(cookieHeader: string | undefined, email: string): string | undefined {
      const value = cookieValue(cookieHeader, nameFor(email));
      const [nonce, expires, signature, ...rest] = value?.split('.') ?? [];
      if (!nonce || !expires || !signature || rest.length > 0 || !/^\d{1,12}$/.test(expires))
        return undefined;
      if (Number(expires) * 1000 <= now()) return undefined;
      const expected = Buffer.from(mac('device', normalizeEmail(email), nonce, expires));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : undefined;
    },

    /** A Set-Cookie value: a new device cookie for this e-mail (a fresh nonce at each sign-in). */
    issue(email: string): string {
      const nonce = randomBytes(16).toString('base64url');
      const expires = String(Math.floor((now() + maxAgeMs) / 1000));
      const value = `${nonce}.${expires}.${mac('device', normalizeEmail(email), nonce, expires)}`;
      return [
        `${nameFor(email)}=${value}`,
        `Path=${path}`,
        `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
        'HttpOnly',
        // Sent with the sign-in form's own POST (same site), not with another site's.
        'SameSite=Lax',
        ...(secure ? ['Secure'] : []),
      ].join('; ');
    },
  };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;

/** One cookie's value from a Cookie header (the first, the most specific path's, if it repeats). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  TokenRejectedError,
  type TokenVerifier,
  type VerifiedIdentity,
} from '../integrations/oidc/token-verifier';
import { authPlugin, userOf, type Admission } from './auth';
import { errorsPlugin } from './errors';

/**
 * The auth hook answers remembered tokens and decisions at once and the rest through promises:
 * both paths must let in, refuse and fail alike.
 */

const ann: VerifiedIdentity = Object.freeze({
  issuer: 'urn:test',
  subject: 'ann',
  email: 'ann@example.com',
  name: 'Ann',
  roles: [],
  scopes: [],
});

type Mode = 'at once' | 'through a promise';
const modes: Mode[] = ['at once', 'through a promise'];
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));
const as = <T>(mode: Mode, value: T): T | Promise<T> =>
  mode === 'at once' ? value : tick().then(() => value);

async function appWith(opts: {
  verify: TokenVerifier['verify'];
  admit: (identity: VerifiedIdentity) => Admission | Promise<Admission>;
  requireAccess: boolean;
}) {
  const app = Fastify({ logger: false });
  await app.register(errorsPlugin);
  await app.register(async (api) => {
    await api.register(authPlugin, { verifier: { verify: opts.verify }, ...opts });
    api.get('/api/who', (req) => ({ id: userOf(req).id, hasAccess: userOf(req).hasAccess }));
  });
  return app;
}

const asked = (app: Awaited<ReturnType<typeof appWith>>, authorization?: string) =>
  app.inject({ url: '/api/who', headers: authorization ? { authorization } : {} });

describe.each(modes)('token verified %s', (verifyMode) => {
  describe.each(modes)('decision %s', (admitMode) => {
    const verify = (token: string) =>
      token === 'good'
        ? as(verifyMode, ann)
        : verifyMode === 'at once'
          ? Promise.reject(new TokenRejectedError('token_expired'))
          : tick().then(() => {
              throw new TokenRejectedError('token_expired');
            });

    it('lets a user with access in, with their id on the request', async () => {
      const app = await appWith({
        verify,
        admit: () => as(admitMode, { userId: 'u1', hasAccess: true }),
        requireAccess: true,
      });
      const res = await asked(app, 'Bearer good');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ id: 'u1', hasAccess: true });
      await app.close();
    });

    it('refuses a user without access with 403, and lets them reach the check', async () => {
      const admit = () => as(admitMode, { userId: 'u2', hasAccess: false });
      const gate = await appWith({ verify, admit, requireAccess: true });
      const refused = await asked(gate, 'Bearer good');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('forbidden');
      await gate.close();

      const check = await appWith({ verify, admit, requireAccess: false });
      const answered = await asked(check, 'Bearer good');
      expect(answered.statusCode).toBe(200);
      expect(answered.json()).toEqual({ id: 'u2', hasAccess: false });
      await check.close();
    });

    it('refuses a missing, malformed or rejected token with 401 and a challenge', async () => {
      const app = await appWith({
        verify,
        admit: () => as(admitMode, { userId: 'u1', hasAccess: true }),
        requireAccess: true,
      });
      for (const authorization of [undefined, 'Basic abc', 'Bearer bad', 'Bearer ', 'Bearer', 'Bearergood']) {
        const res = await asked(app, authorization);
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="GEM"/);
      }
      await app.close();
    });

    it('takes the scheme in any case and with more than one space', async () => {
      const app = await appWith({
        verify,
        admit: () => as(admitMode, { userId: 'u1', hasAccess: true }),
        requireAccess: true,
      });
      for (const authorization of ['bearer good', 'BEARER  good']) {
        expect((await asked(app, authorization)).statusCode, authorization).toBe(200);
      }
      await app.close();
    });

    it('answers a failed decision (the database down) with 500, not a way in', async () => {
      const app = await appWith({
        verify,
        admit: () =>
          admitMode === 'at once'
            ? Promise.reject(new Error('database down'))
            : tick().then(() => {
                throw new Error('database down');
              }),
        requireAccess: true,
      });
      const res = await asked(app, 'Bearer good');
      expect(res.statusCode).toBe(500);
      expect(res.json().error.code).toBe('internal_error');
      await app.close();
    });
  });
});

import { errorResponseSchema } from '@gem/contracts/errors';
import {
  BRAND_PROFILE_TOO_LARGE_MESSAGE,
  brandProfileResponseSchema,
  brandVersionSchema,
  brandVersionsResponseSchema,
  brandVoicePaths,
  styleCheckSchema,
  type BrandProfile,
} from '@gem/contracts/brand-voice';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PERMITTED_DOMAIN, useAiHarness, brandProfileSample } from '../../../test/ai-harness';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import { auditEvents } from '../../db/schema/index';
import { createBrandVoice } from '../../lib/brand-voice/brand-voice';
import { createInflection } from '../../lib/brand-voice/inflection';
import { createScheduler } from '../../lib/scheduler';
import { createAdminBrandVoice } from './admin-brand-voice.service';
import { SAMPLE_BRAND_NOTE } from './admin-brand-voice.sample';
import type { AdminDeps } from './admin.deps';

/**
 * The administrators' brand profile (issue 31) through the real app: only administrators, a
 * save as the next version with its forms, the versions and one to compare, a save on a replaced
 * version refused, every bad input a 400 naming its field, each save in the audit log, and the
 * demo's sample profile saved once however many instances start.
 */
const h = useAiHarness();

const adminBearer = async () => `Bearer ${await h.issuer.sign(accessClaims('admin'))}`;

async function call(
  method: 'GET' | 'PUT',
  url: string,
  payload?: unknown,
  authorization?: string,
  target: App = h.main,
) {
  return target.inject({
    method,
    url,
    headers: { authorization: authorization ?? (await adminBearer()) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

const save = (body: unknown) => call('PUT', brandVoicePaths.adminProfile, body);
const versionPath = (n: number | string) => brandVoicePaths.adminVersion.replace(':version', String(n));
const errorOf = (res: { json: () => unknown }) => errorResponseSchema.parse(res.json()).error;

async function current() {
  const res = await call('GET', brandVoicePaths.adminProfile);
  expect(res.statusCode, res.body).toBe(200);
  return brandProfileResponseSchema.parse(res.json()).current;
}

/** A save's 400: its issues as path → message. */
async function refused(profile: unknown, basedOn: number | null = null) {
  const res = await save({ profile, basedOn });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(400);
  const error = errorOf(res);
  expect(error.code).toBe('validation_failed');
  return Object.fromEntries((error.issues ?? []).map((issue) => [issue.path, issue.message]));
}

/** A small profile, the one every brand voice test saves. */
const sampleProfile = brandProfileSample;

const withBanned = (term: string, over: Partial<BrandProfile> = {}) =>
  sampleProfile({ banned: [{ term, reason: 'Nie używamy.', replacement: '' }], ...over });

describe('the brand profile in the admin area', () => {
  it('is for administrators only', async () => {
    const marketer = await h.bearer('ala');
    for (const [method, url] of [
      ['GET', brandVoicePaths.adminProfile],
      ['PUT', brandVoicePaths.adminProfile],
      ['GET', brandVoicePaths.adminVersions],
      ['GET', versionPath(1)],
    ] as const) {
      const res = await call(
        method,
        url,
        method === 'PUT' ? { profile: sampleProfile(), basedOn: null } : undefined,
        marketer,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await current()).toBeNull();
  });

  it('says plainly when a version does not exist', async () => {
    const res = await call('GET', versionPath(7));
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toBe(
      'There is no version 7 of the brand profile. The list of versions shows every one saved.',
    );
    expect((await call('GET', versionPath('abc'))).statusCode).toBe(400);
  });

  it('saves versions with their forms, lists them, and shows two to compare', async () => {
    const first = await save({ profile: sampleProfile(), note: 'Pierwsza wersja', basedOn: null });
    expect(first.statusCode, first.body).toBe(200);
    const one = brandProfileResponseSchema.parse(first.json()).current!;
    expect(one).toMatchObject({ version: 1, note: 'Pierwsza wersja', savedBy: 'admin@example.com' });
    const tani = one.forms.find((entry) => entry.term === 'tani')!;
    expect(tani.words.flat()).toEqual(expect.arrayContaining(['tania', 'taniego', 'tanich']));

    const profile = sampleProfile();
    profile.banned.push({ term: 'kompleksowy', reason: 'Ogólnik.', replacement: 'pełny' });
    const second = await save({ profile, basedOn: 1 });
    expect(second.statusCode, second.body).toBe(200);
    expect(brandProfileResponseSchema.parse(second.json()).current).toMatchObject({ version: 2, note: null });
    expect((await current())?.version).toBe(2);

    const list = brandVersionsResponseSchema.parse((await call('GET', brandVoicePaths.adminVersions)).json());
    expect(list.items.map((item) => [item.version, item.counts.banned])).toEqual([
      [2, 3],
      [1, 2],
    ]);
    const v1 = brandVersionSchema.parse((await call('GET', versionPath(1))).json());
    const v2 = brandVersionSchema.parse((await call('GET', versionPath(2))).json());
    expect(v1.profile.banned.map((b) => b.term)).not.toContain('kompleksowy');
    expect(v2.profile.banned.map((b) => b.term)).toContain('kompleksowy');
    expect(v2.forms.find((entry) => entry.term === 'kompleksowy')?.words.flat()).toContain('kompleksowa');

    // Someone saved version 2 since the editor opened version 1: nothing is overwritten.
    const stale = await save({ profile: sampleProfile(), basedOn: 1 });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale)).toMatchObject({ code: 'conflict' });
    expect(errorOf(stale).message).toContain('Someone saved version 2 of the brand profile');
    expect((await save({ profile: sampleProfile(), basedOn: null })).statusCode).toBe(409);
    expect((await current())?.version).toBe(2);
  });

  it('writes each save to the audit log', async () => {
    const [entry] = await h.database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'brand-voice.saved'), eq(auditEvents.target, 'brand profile version 2')),
      )
      .orderBy(desc(auditEvents.id));
    expect(entry).toMatchObject({
      actorEmail: 'admin@example.com',
      details: {
        version: 2,
        basedOn: 1,
        note: null,
        counts: { banned: 3, preferred: 1, names: 1, disclaimers: 1 },
      },
    });
    expect(entry!.ip).toBeTruthy();
  });

  it('refuses bad terms with a 400 naming the field', async () => {
    expect(await refused(withBanned(''))).toEqual({
      'body.profile.banned.0.term': 'The banned term is empty.',
    });
    expect(await refused(withBanned('   '))).toEqual({
      'body.profile.banned.0.term': 'The banned term is empty.',
    });
    expect(await refused(withBanned('x'.repeat(500)))).toEqual({
      'body.profile.banned.0.term': 'The banned term is longer than 100 characters.',
    });
    expect(Object.keys(await refused(withBanned('ta\u0000ni')))).toEqual(['body.profile.banned.0.term']);
    expect(Object.keys(await refused(withBanned('ta\ud800ni')))).toEqual(['body.profile.banned.0.term']);
    expect(await refused(sampleProfile({ names: ['Audyt', '\udc00'] }))).toHaveProperty([
      'body.profile.names.1',
    ]);
    const two = sampleProfile();
    two.voice.attributes = two.voice.attributes.slice(0, 2);
    expect(await refused(two)).toEqual({
      'body.profile.voice.attributes': 'Give the voice 3 to 6 attributes.',
    });
    expect(await refused(sampleProfile(), 0)).toHaveProperty(['body.basedOn']);
  });

  it('refuses 10,000 terms with the limit, even when the request is larger than most', async () => {
    // Each entry with a long reason: about 1.3 MB, over the app's usual 1 MiB.
    const banned = Array.from({ length: 10_000 }, (_, i) => ({
      term: `słowo${i}`,
      reason: 'Nie używamy tego słowa w żadnym tekście firmy, bo brzmi źle.',
      replacement: 'inne',
    }));
    expect(await refused(sampleProfile({ banned }))).toEqual({
      'body.profile.banned': 'Banned terms: at most 1,000 entries.',
    });
    const names = Array.from({ length: 10_000 }, (_, i) => `Nazwa ${i}`);
    expect(await refused(sampleProfile({ names }))).toEqual({
      'body.profile.names': 'Names: at most 1,000 entries.',
    });
    // Each list within its own limit, too many together.
    const together = sampleProfile({
      names: Array.from({ length: 900 }, (_, i) => `Nazwa ${i}`),
      banned: Array.from({ length: 900 }, (_, i) => ({ term: `słowo${i}`, reason: 'Nie.', replacement: '' })),
    });
    expect(await refused(together)).toEqual({
      'body.profile':
        'A profile holds at most 1,000 terms (banned and preferred terms, the words they replace and names together); this one has 1,802.',
    });
  });

  it('says what the limit is when a save is too large to read', async () => {
    const banned = Array.from({ length: 5_000 }, (_, i) => ({
      term: `słowo${i}`,
      reason: 'Powód '.repeat(60),
      replacement: '',
    }));
    const res = await save({ profile: sampleProfile({ banned }), basedOn: 2 });
    expect(res.statusCode).toBe(413);
    expect(errorOf(res)).toMatchObject({
      code: 'payload_too_large',
      message: BRAND_PROFILE_TOO_LARGE_MESSAGE,
    });
  });

  it('takes terms that look like regular expressions, and matches them literally', async () => {
    const profile = sampleProfile();
    profile.banned.push(
      { term: 'a.*b', reason: 'Test.', replacement: '' },
      { term: '(x)', reason: 'Test.', replacement: '' },
    );
    const res = await save({ profile, basedOn: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const check = async (text: string) => {
      const answer = await h.main.inject({
        method: 'POST',
        url: brandVoicePaths.check,
        headers: { authorization: await h.bearer('ala') },
        payload: { text },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return styleCheckSchema
        .parse(answer.json())
        .findings.filter((f) => f.rule === 'banned')
        .map((f) => f.text);
    };
    expect(await check('Wzór a.*b i znak (x) w tekście.')).toEqual(['a.*b', '(x)']);
    expect(await check('Słowo aXXb i x bez nawiasów.')).toEqual([]);
  });
});

describe('the demo’s sample profile', () => {
  it('is saved once as version 1 when the demo accounts are on, however many instances start', async () => {
    const database = await createTestDatabase();
    const base = testConfig();
    const config = testConfig({
      auth: { ...externalAuth(h.issuer.issuer), demoAccounts: true },
      access: { ...base.access, allowedDomains: [PERMITTED_DOMAIN] },
    });
    const apps = [
      await buildTestApp({ config, database, background: true }),
      await buildTestApp({ config, database, background: true }),
    ];
    try {
      await Promise.all(apps.map((app) => app.listen({ port: 0, host: '127.0.0.1' })));
      await expect
        .poll(
          async () => {
            const res = await call('GET', brandVoicePaths.adminVersions, undefined, undefined, apps[1]);
            return brandVersionsResponseSchema.parse(res.json()).items.map((item) => item.note);
          },
          { timeout: 45_000 },
        )
        .toEqual([SAMPLE_BRAND_NOTE]);
      const res = await call('GET', brandVoicePaths.adminProfile, undefined, undefined, apps[0]);
      const sample = brandProfileResponseSchema.parse(res.json()).current!;
      expect(sample).toMatchObject({ version: 1, savedBy: null });
      expect(sample.profile.voice.address).toBe('panstwo');
      expect(sample.profile.banned.map((b) => b.term)).toEqual(
        expect.arrayContaining(['tani', 'rozwiązanie szyte na miarę', 'kompleksowy']),
      );
      expect(sample.profile.facts.serviceLines).toEqual(expect.arrayContaining(['Deal Advisory', 'Audyt']));
      expect(sample.forms.find((entry) => entry.term === 'tani')?.words.flat()).toContain('taniego');
      const entries = await database.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, 'brand-voice.saved'));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actorEmail: null, target: 'brand profile version 1' });
    } finally {
      for (const app of apps) await app.close();
      await database.close();
    }
  });

  it('is one version when two instances save it at once, and never replaces a profile', async () => {
    const database = await createTestDatabase();
    const inflection = createInflection();
    const config = testConfig();
    const log = { error: () => undefined, warn: () => undefined, info: () => undefined };
    const instance = () =>
      createAdminBrandVoice({
        db: database.db,
        brandVoice: createBrandVoice({ db: database.db, inflection }),
        config,
        scheduler: createScheduler({ db: database.db, log: h.main.log }),
        log,
      } as unknown as AdminDeps);
    try {
      const [a, b] = [instance(), instance()];
      const outcomes = await Promise.all([a.seedSample(), b.seedSample()]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await a.versions()).items).toHaveLength(1);
      expect(await instance().seedSample()).toBe(false);
      expect((await b.versions()).items).toHaveLength(1);
    } finally {
      await inflection.close();
      await database.close();
    }
  });
});

import {
  ALLOWANCE_EXHAUSTED_MESSAGE,
  adminPaths,
  allowancesResponseSchema,
  ownAllowanceResponseSchema,
  type AllowancesResponse,
} from '@gem/contracts/admin-allowances';
import { briefCreatorPaths } from '@gem/contracts/brief-creator';
import { errorResponseSchema } from '@gem/contracts/errors';
import { writingToolPaths } from '@gem/contracts/writing-tools';
import { desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accessClaims } from '../../../test/test-app';
import { parseEvents, PERMITTED_DOMAIN, useAiHarness } from '../../../test/ai-harness';
import type { App } from '../../app';
import { auditEvents, generations, users } from '../../db/schema/index';
import { readAllowance } from '../../lib/ai/ai-allowance';

/**
 * Monthly AI allowances (issue 30): what administrators set (PUT, audited), what a user sees of
 * their own (GET /api/ai/allowance), and the AI platform's refusal once it is used up, on every
 * AI route, across two instances on one database.
 */
const h = useAiHarness();

const adminBearer = async () => `Bearer ${await h.issuer.sign(accessClaims('admin'))}`;

async function admin(method: 'GET' | 'PUT', url: string, payload?: unknown, target: App = h.main) {
  return target.inject({
    method,
    url,
    headers: { authorization: await adminBearer() },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function setDefault(monthlyTokens: number | null) {
  const res = await admin('PUT', adminPaths.allowanceDefault, { monthlyTokens });
  expect(res.statusCode, res.body).toBe(200);
  return allowancesResponseSchema.parse(res.json());
}

async function setFor(userId: string, monthlyTokens: number | null, target: App = h.main) {
  const res = await admin(
    'PUT',
    adminPaths.allowanceUser.replace(':userId', userId),
    { monthlyTokens },
    target,
  );
  expect(res.statusCode, res.body).toBe(200);
  return allowancesResponseSchema.parse(res.json());
}

async function own(user: string, target: App = h.main) {
  const res = await target.inject({
    method: 'GET',
    url: adminPaths.allowance,
    headers: { authorization: await h.bearer(user) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return ownAllowanceResponseSchema.parse(res.json());
}

/** The user's row id (they are recorded at their first call). */
async function idOf(user: string): Promise<string> {
  await own(user);
  const [row] = await h.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, `${user}@${PERMITTED_DOMAIN}`));
  return row!.id;
}

/** Tokens (in and out) of the user's recorded calls. */
async function recordedTokens(userId: string): Promise<number> {
  const [row] = await h.database.db
    .select({
      tokens: sql<string>`coalesce(sum(${generations.promptTokens} + ${generations.completionTokens}), 0)`,
    })
    .from(generations)
    .where(eq(generations.userId, userId));
  return Number(row!.tokens);
}

const errorOf = (res: { json: () => unknown }) => errorResponseSchema.parse(res.json()).error;

function expectExhausted(res: Awaited<ReturnType<App['inject']>>) {
  expect(res.statusCode, res.body).toBe(429);
  expect(errorOf(res)).toMatchObject({ code: 'allowance_exhausted', message: ALLOWANCE_EXHAUSTED_MESSAGE });
  expect(res.headers['retry-after']).toBeUndefined();
}

const firstOfNextMonth = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString();
};

describe('a user’s own allowance', () => {
  it('has no limit until an administrator sets one, and counts the month’s tokens', async () => {
    expect(await own('nolimit')).toEqual({
      monthlyTokens: null,
      usedTokens: 0,
      remainingTokens: null,
      resetsAt: firstOfNextMonth(),
    });
    h.ai.enqueue({ kind: 'text', text: 'Krótki teaser.' });
    const res = await h.generate('teaser-generator', 'nolimit');
    expect(parseEvents(res.body).at(-1)?.type).toBe('final');
    const used = await recordedTokens(await idOf('nolimit'));
    expect(used).toBeGreaterThan(0);
    expect(await own('nolimit')).toMatchObject({
      monthlyTokens: null,
      usedTokens: used,
      remainingTokens: null,
    });
  });

  it('counts this month only (UTC), from the rollups every instance writes', async () => {
    const userId = await idOf('months');
    const at = Date.UTC(2026, 4, 15, 12);
    const row = (createdAt: Date, tokens: number) => ({
      userId,
      generator: 'article',
      input: {},
      model: 'm',
      promptTokens: tokens,
      completionTokens: 1,
      latencyMs: 10,
      outcome: 'succeeded' as const,
      createdAt,
    });
    await h.database.db
      .insert(generations)
      .values([
        row(new Date(Date.UTC(2026, 3, 30, 23, 59, 59)), 1000),
        row(new Date(Date.UTC(2026, 4, 1, 0, 0, 0)), 20),
        row(new Date(Date.UTC(2026, 4, 31, 23, 0)), 30),
      ]);
    expect(await readAllowance(h.database.db, userId, at)).toEqual({
      monthlyTokens: null,
      usedTokens: 52,
      remainingTokens: null,
      resetsAt: new Date(Date.UTC(2026, 5, 1)),
    });
  });
});

describe('the AI platform’s refusal', () => {
  it('refuses every AI route with 429 and clear words once the allowance is used up, before any model call', async () => {
    const userId = await idOf('spent');
    await setFor(userId, 1);
    h.ai.enqueue({ kind: 'text', text: 'Pierwszy i ostatni teaser.' });
    // Nothing used yet: the call goes through, and takes the user past the allowance.
    expect(parseEvents((await h.generate('teaser-generator', 'spent')).body).at(-1)?.type).toBe('final');
    const used = await recordedTokens(userId);
    expect(await own('spent')).toEqual({
      monthlyTokens: 1,
      usedTokens: used,
      remainingTokens: 0,
      resetsAt: firstOfNextMonth(),
    });

    h.ai.reset();
    expectExhausted(await h.generate('article', 'spent'));
    expectExhausted(await h.generate('summarize', 'spent'));
    const authorization = await h.bearer('spent');
    expectExhausted(
      await h.main.inject({
        method: 'POST',
        url: writingToolPaths.generatePrompt,
        headers: { authorization },
        payload: { userPrompt: 'Napisz coś.' },
      }),
    );
    for (const url of [briefCreatorPaths.chat, briefCreatorPaths.chatStream]) {
      expectExhausted(
        await h.main.inject({
          method: 'POST',
          url,
          headers: { authorization },
          payload: { message: 'Cześć' },
        }),
      );
    }
    expect(h.ai.requests).toHaveLength(0);
    // A refused call is not a call: nothing recorded, nothing counted.
    expect(await recordedTokens(userId)).toBe(used);
    // Someone else is not affected.
    h.ai.enqueue({ kind: 'text', text: 'Inny użytkownik.' });
    expect(parseEvents((await h.generate('teaser-generator', 'unaffected')).body).at(-1)?.type).toBe('final');
  });

  it('lets the user go on once an administrator raises it, and falls back to the default when the override goes', async () => {
    const userId = await idOf('raised');
    await setFor(userId, 0);
    expect(await own('raised')).toMatchObject({ monthlyTokens: 0, usedTokens: 0, remainingTokens: 0 });
    expectExhausted(await h.generate('teaser-generator', 'raised'));

    await setFor(userId, 1_000_000);
    h.ai.enqueue({ kind: 'text', text: 'Już można.' });
    expect(parseEvents((await h.generate('teaser-generator', 'raised')).body).at(-1)?.type).toBe('final');
    const used = await recordedTokens(userId);
    expect(await own('raised')).toMatchObject({
      monthlyTokens: 1_000_000,
      remainingTokens: 1_000_000 - used,
    });

    // Back to the default: a default the user has used up already refuses them too.
    await setDefault(used);
    await setFor(userId, null);
    expect(await own('raised')).toMatchObject({ monthlyTokens: used, usedTokens: used, remainingTokens: 0 });
    expectExhausted(await h.generate('teaser-generator', 'raised'));
    // …and everyone without an override of their own has that default.
    expect((await own('newcomer')).monthlyTokens).toBe(used);
    await setDefault(null);
    expect((await own('raised')).monthlyTokens).toBeNull();
  });

  it('is counted in the database: two instances on one database overspend by at most the calls in flight', async () => {
    const other = await h.app();
    const userId = await idOf('twice');
    await setFor(userId, 1, other);
    // Both calls begin (pass the check) before either is recorded: each waits for its answer.
    h.ai.enqueue(
      { kind: 'text', text: 'Pierwsza odpowiedź.', firstTokenDelayMs: 1_000 },
      { kind: 'text', text: 'Druga odpowiedź.', firstTokenDelayMs: 1_000 },
    );
    const one = h.generate('teaser-generator', 'twice');
    const two = h.generate('teaser-generator', 'twice', undefined, other);
    await expect.poll(() => h.ai.requests.length).toBe(2);
    // A third call on either instance is still allowed meanwhile: nothing is recorded yet. It is
    // not made here; the two in flight are the overspend.
    for (const res of await Promise.all([one, two])) expect(parseEvents(res.body).at(-1)?.type).toBe('final');

    const used = await recordedTokens(userId);
    const [first, second] = await h.database.db
      .select({ tokens: sql<number>`${generations.promptTokens} + ${generations.completionTokens}` })
      .from(generations)
      .where(eq(generations.userId, userId));
    expect(Number(first!.tokens) + Number(second!.tokens)).toBe(used);
    // Both instances read the same month: over the allowance by the two calls' tokens, no more.
    for (const target of [h.main, other]) {
      expect(await own('twice', target)).toMatchObject({
        monthlyTokens: 1,
        usedTokens: used,
        remainingTokens: 0,
      });
      h.ai.reset();
      expectExhausted(await h.generate('teaser-generator', 'twice', undefined, target));
      expect(h.ai.requests).toHaveLength(0);
    }
  });
});

describe('the admin area’s allowances', () => {
  it('lists the default, the overrides with who set them, and everyone’s month by share, flagging who is near their limit', async () => {
    const [near, far, over] = await Promise.all([idOf('near'), idOf('far'), idOf('over')]);
    const insert = (userId: string, tokens: number) =>
      h.database.db.insert(generations).values({
        userId,
        generator: 'article',
        input: {},
        model: 'm',
        promptTokens: tokens,
        completionTokens: 0,
        latencyMs: 10,
        outcome: 'succeeded',
        createdAt: new Date(),
      });
    await insert(near, 850);
    await insert(far, 100);
    await insert(over, 1_200);
    await setFor(near, 1_000);
    await setFor(far, 1_000);
    const list: AllowancesResponse = await setFor(over, 1_000);

    const adminRow = (
      await h.database.db.select().from(users).where(eq(users.email, 'admin@example.com'))
    )[0]!;
    const nearOverride = list.overrides.find((o) => o.person.userId === near);
    expect(nearOverride).toEqual({
      person: { userId: near, email: `near@${PERMITTED_DOMAIN}`, name: 'near' },
      monthlyTokens: 1_000,
      setBy: { userId: adminRow.id, email: 'admin@example.com', name: adminRow.displayName },
      setAt: expect.any(String),
    });
    const mine = list.month.filter((m) => [near, far, over].includes(m.person.userId));
    expect(mine.map((m) => [m.person.email, m.usedTokens, m.share, m.nearLimit, m.overridden])).toEqual([
      [`over@${PERMITTED_DOMAIN}`, 1_200, 1.2, true, true],
      [`near@${PERMITTED_DOMAIN}`, 850, 0.85, true, true],
      [`far@${PERMITTED_DOMAIN}`, 100, 0.1, false, true],
    ]);
    // Sorted by share over everyone: no one after a smaller share has a larger one.
    const shares = list.month.map((m) => m.share ?? -1);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));

    const got = await admin('GET', adminPaths.allowances);
    expect(got.statusCode).toBe(200);
    expect(allowancesResponseSchema.parse(got.json()).month).toEqual(list.month);
  });

  it('audits every change: who, from where, before and after', async () => {
    const userId = await idOf('audited');
    await setFor(userId, 5_000);
    await setFor(userId, null);
    const after = await setDefault(70_000);
    await setDefault(null);
    const adminRow = (
      await h.database.db.select().from(users).where(eq(users.email, 'admin@example.com'))
    )[0]!;
    expect(after).toMatchObject({ defaultMonthlyTokens: 70_000, defaultSetBy: 'admin@example.com' });

    const entries = await h.database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} like 'allowance.%'`)
      .orderBy(desc(auditEvents.id))
      .limit(4);
    expect(
      entries.map((e) => [e.action, e.actorUserId, e.actorEmail, e.targetUserId, e.target, e.details, e.ip]),
    ).toEqual([
      [
        'allowance.default-set',
        adminRow.id,
        'admin@example.com',
        null,
        'default monthly allowance',
        { from: 70_000, to: null },
        '127.0.0.1',
      ],
      [
        'allowance.default-set',
        adminRow.id,
        'admin@example.com',
        null,
        'default monthly allowance',
        { from: null, to: 70_000 },
        '127.0.0.1',
      ],
      [
        'allowance.user-set',
        adminRow.id,
        'admin@example.com',
        userId,
        `audited@${PERMITTED_DOMAIN}`,
        { from: 5_000, to: null },
        '127.0.0.1',
      ],
      [
        'allowance.user-set',
        adminRow.id,
        'admin@example.com',
        userId,
        `audited@${PERMITTED_DOMAIN}`,
        { from: null, to: 5_000 },
        '127.0.0.1',
      ],
    ]);
  });

  it('answers bad input with a clear 400 naming the field, and changes nothing', async () => {
    const userId = await idOf('careful');
    const cases: [string, unknown, string, string][] = [
      [
        adminPaths.allowanceDefault,
        { monthlyTokens: -1 },
        'body.monthlyTokens',
        'The allowance cannot be negative.',
      ],
      [
        adminPaths.allowanceDefault,
        { monthlyTokens: 1e13 },
        'body.monthlyTokens',
        'The allowance can be at most 1,000,000,000,000 tokens.',
      ],
      [
        adminPaths.allowanceDefault,
        { monthlyTokens: 2.5 },
        'body.monthlyTokens',
        'Give the allowance as a whole number of tokens.',
      ],
      [
        adminPaths.allowanceDefault,
        { monthlyTokens: '100' },
        'body.monthlyTokens',
        'Give the allowance as a whole number of tokens, or no limit.',
      ],
      [
        adminPaths.allowanceDefault,
        {},
        'body.monthlyTokens',
        'Give the allowance as a whole number of tokens, or no limit.',
      ],
      [
        adminPaths.allowanceUser.replace(':userId', userId),
        { monthlyTokens: -5 },
        'body.monthlyTokens',
        'The allowance cannot be negative.',
      ],
      [
        adminPaths.allowanceUser.replace(':userId', '00000000-0000-4000-8000-000000000000'),
        { monthlyTokens: 5 },
        'params.userId',
        'No such user.',
      ],
      [
        adminPaths.allowanceUser.replace(':userId', 'nobody'),
        { monthlyTokens: 5 },
        'params.userId',
        'No such user.',
      ],
    ];
    for (const [url, payload, path, message] of cases) {
      const res = await admin('PUT', url, payload);
      const where = `${url} ${JSON.stringify(payload)}`;
      expect(res.statusCode, where).toBe(400);
      expect(errorOf(res).issues, where).toContainEqual({ path, message });
    }
    const list = allowancesResponseSchema.parse((await admin('GET', adminPaths.allowances)).json());
    expect(list.defaultMonthlyTokens).toBeNull();
    expect(list.overrides.find((o) => o.person.userId === userId)).toBeUndefined();
  });

  it('is for administrators only; a user reads only their own', async () => {
    const userId = await idOf('curious');
    const authorization = await h.bearer('curious');
    for (const [method, url] of [
      ['GET', adminPaths.allowances],
      ['PUT', adminPaths.allowanceDefault],
      ['PUT', adminPaths.allowanceUser.replace(':userId', userId)],
    ] as const) {
      const res = await h.main.inject({
        method,
        url,
        headers: { authorization },
        payload: { monthlyTokens: 1 },
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await own('curious')).toMatchObject({ monthlyTokens: null });
  });
});

import { adminPaths, usageStyleResponseSchema } from '@gem/contracts/admin-usage';
import { brandVoicePaths } from '@gem/contracts/brand-voice';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { brandProfileSample, finalOf, parseEvents, useAiHarness } from '../../../test/ai-harness';
import { accessClaims } from '../../../test/test-app';
import { recordAiCall } from '../../lib/ai/ai-call-log';
import { users } from '../../db/schema/index';

/**
 * The usage page's brand voice part (issue 31): the admin sees, per period and tool, what the
 * style check found in the generations, from real generations made through the app with a profile
 * saved through the admin route, and from records of other days written as the AI platform writes
 * them.
 */
const h = useAiHarness();
let admin: string;

const style = async (query: Record<string, string>) => {
  const res = await h.main.inject({
    method: 'GET',
    url: `${adminPaths.usageStyle}?${new URLSearchParams(query)}`,
    headers: { authorization: admin },
  });
  expect(res.statusCode, res.body).toBe(200);
  return usageStyleResponseSchema.parse(res.json());
};

const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  admin = `Bearer ${await h.issuer.sign(accessClaims('admin'))}`;
  const saved = await h.main.inject({
    method: 'PUT',
    url: brandVoicePaths.adminProfile,
    headers: { authorization: admin },
    payload: { profile: brandProfileSample(), basedOn: null },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}, 60_000);

describe('the usage page’s brand voice findings', () => {
  it('counts what the check found in each tool’s generations, per day and per week', async () => {
    h.ai.enqueue({ kind: 'text', text: 'Tania oferta i taniego doradcy. Deal advisory!!' });
    const article = finalOf(parseEvents((await h.generate('article', 'ala')).body));
    h.ai.enqueue({ kind: 'text', text: 'Spokojny tekst o audycie dla zarządu.' });
    const teaser = finalOf(parseEvents((await h.generate('teaser-generator', 'ala')).body));
    expect(article.style?.counts.banned).toBe(2);

    // Two days back, a paid ad recorded as the platform records one (its check included).
    const [person] = await h.database.db
      .insert(users)
      .values({ issuer: 'https://idp.example', subject: randomUUID(), email: 'ola@example.com' })
      .returning({ id: users.id });
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    const adStyle = {
      ...article.style!,
      counts: { ...article.style!.counts, banned: 0, disclaimer: 1, name: 0, exclamation: 0 },
      score: 80,
    };
    await recordAiCall(h.database.db, {
      id: randomUUID(),
      userId: person!.id,
      tool: 'paid-ads',
      input: {},
      output: { text: 'x' },
      model: 'm',
      usage: null,
      startedAt: twoDaysAgo,
      latencyMs: 5,
      outcome: 'succeeded',
      errorCode: null,
      brandVersion: 1,
      style: adStyle,
    });

    const from = twoDaysAgo.toISOString().slice(0, 10);
    const byDay = await style({ from, to: today(), by: 'day' });
    const articleFindings = Object.values(article.style!.counts).reduce((a, b) => a + b, 0);
    const teaserFindings = Object.values(teaser.style!.counts).reduce((a, b) => a + b, 0);
    expect(byDay.series).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          period: from,
          tool: 'paid-ads',
          checked: 1,
          findings: 1,
          scoreAverage: 80,
        }),
        expect.objectContaining({ period: today(), tool: 'article', checked: 1, findings: articleFindings }),
        expect.objectContaining({
          period: today(),
          tool: 'teaser-generator',
          checked: 1,
          findings: teaserFindings,
        }),
      ]),
    );
    expect(byDay.totals.checked).toBe(3);
    expect(byDay.totals.counts.banned).toBe(2);
    expect(byDay.totals.counts.disclaimer).toBe(
      1 + article.style!.counts.disclaimer + teaser.style!.counts.disclaimer,
    );
    expect(byDay.totals.scoreAverage).toBeCloseTo(
      (Math.round(article.style!.score) + Math.round(teaser.style!.score) + 80) / 3,
      1,
    );
    // The tool with the most findings first.
    expect(byDay.tools[0]!.tool).toBe('article');

    const oneTool = await style({ from, to: today(), by: 'week', tool: 'paid-ads' });
    expect(oneTool.tools.map((t) => t.tool)).toEqual(['paid-ads']);
    expect(oneTool.series.every((s) => s.period >= from)).toBe(true);

    const none = await style({ from: '2020-01-01', to: '2020-01-31', by: 'day' });
    expect(none).toMatchObject({
      series: [],
      tools: [],
      totals: { checked: 0, findings: 0, scoreAverage: null },
    });
  });

  it('refuses what the usage page refuses, and anyone but an administrator', async () => {
    const backwards = await h.main.inject({
      method: 'GET',
      url: `${adminPaths.usageStyle}?from=2026-03-10&to=2026-03-01`,
      headers: { authorization: admin },
    });
    expect(backwards.statusCode).toBe(400);
    expect(JSON.stringify(backwards.json().error)).toContain(
      '"path":"querystring.to","message":"The range ends before it starts."',
    );
    const marketer = await h.main.inject({
      method: 'GET',
      url: adminPaths.usageStyle,
      headers: { authorization: await h.bearer('ala') },
    });
    expect(marketer.statusCode).toBe(403);
  });
});

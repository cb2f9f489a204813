import { Writable } from 'node:stream';
import { briefChatEventSchema, briefCreatorPaths, type BriefChatEvent } from '@gem/contracts/brief-creator';
import {
  campaignAssetsPaths,
  campaignGenerateAllPath,
  generateAllEventSchema,
} from '@gem/contracts/campaign-assets';
import type { StyleCheck } from '@gem/contracts/brand-voice';
import { briefChatTurn } from '@gem/test-servers/brief-replies';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brandProfileSample,
  campaignCallsOf,
  finalOf,
  parseEvents,
  systemOf,
  useAiHarness,
} from '../../../test/ai-harness';
import { generations, styleDaily } from '../../db/schema/index';
import { createBrandVoice } from './brand-voice';
import { createInflection } from './inflection';

/**
 * Issue 31, "runs after every generation": the style check of what a generator wrote travels in
 * its final event, is stored with the generation (`generations.style`) and counted in the day's
 * rollup (`style_daily`); for paid ads it reads the copy, for a campaign asset its channel's
 * rules. And a long profile still fits the prompt, cut predictably, saying so in the prompt and
 * the log, its disclaimers never cut. Through the real app, the OpenAI-compatible test server
 * and a real database.
 */

const t = useAiHarness();
const { call, openCampaign } = campaignCallsOf(t);
const inflection = createInflection();
const admin = () => createBrandVoice({ db: t.database.db, inflection });
const USER = 'stylist';
const DISCLAIMER = 'Materiał nie stanowi porady prawnej.';

beforeAll(async () => {
  await admin().save({ profile: brandProfileSample(), basedOn: null, userId: null });
}, 60_000);
afterAll(() => inflection.close());

async function recordOf(id: string) {
  const [row] = await t.database.db
    .select({ style: generations.style, brandVersion: generations.brandVersion, tool: generations.generator })
    .from(generations)
    .where(eq(generations.id, id));
  return row!;
}

async function rollup(tool: string) {
  const [row] = await t.database.db
    .select()
    .from(styleDaily)
    .where(and(eq(styleDaily.tool, tool), eq(styleDaily.day, sql`(now() at time zone 'UTC')::date`)));
  return row ?? { checked: 0, banned: 0, disclaimer: 0, scoreSum: 0 };
}

/** The findings of `rule`, each with the text it marks in `text`. */
const marked = (style: StyleCheck | undefined, rule: string, text: string) =>
  (style?.findings ?? [])
    .filter((f) => f.rule === rule)
    .map((f) => ({ text: f.text, marks: text.slice(f.start, f.end) }));

describe('the style check after every generation', () => {
  it("a writing tool's final event carries it, the record keeps it, and the day's rollup counts it", async () => {
    const before = await rollup('article');
    const answer = 'Oferujemy taniego doradcę. Tania analiza, ale nie taniec.';
    t.ai.enqueue({ kind: 'text', text: answer });
    const res = await t.generate('article', USER);
    expect(res.statusCode, res.body).toBe(200);
    const final = finalOf(parseEvents(res.body));
    const { text } = final.output;
    expect(text).toBe(answer);
    expect(final.style?.version).toBe(1);
    const banned = final.style!.findings.filter((f) => f.rule === 'banned');
    expect(banned.map((f) => [f.text, f.start, f.end])).toEqual([
      ['taniego', text.indexOf('taniego'), text.indexOf('taniego') + 'taniego'.length],
      ['Tania', text.indexOf('Tania'), text.indexOf('Tania') + 'Tania'.length],
    ]);
    expect(banned[0]).toMatchObject({ reason: 'Brzmi jak niska jakość.' });

    const record = await recordOf(final.generationId);
    expect(record).toMatchObject({ brandVersion: 1, tool: 'article' });
    expect(record.style).toEqual(final.style);

    const after = await rollup('article');
    expect(after.checked).toBe(before.checked + 1);
    expect(after.banned).toBe(before.banned + 2);
    expect(after.scoreSum).toBe(before.scoreSum + Math.round(final.style!.score));
  });

  it('reads the ad copy of paid ads (not the analysis), with the tool’s disclaimer', async () => {
    t.ai.enqueue({
      kind: 'text',
      text: '## Analiza\n\nTania oferta nie przekona CFO.\n\n## Tekst reklamy\n\nNagłówek: Raport dla CFO\nOpis: Nie tani, ale rzetelny.',
    });
    const res = await t.generate('paid-ads', USER);
    const final = finalOf(parseEvents(res.body));
    const copy = final.output.copy!;
    expect(marked(final.style, 'banned', copy)).toEqual([{ text: 'tani', marks: 'tani' }]);
    // The paid-ads tool must carry its disclaimer; the answer did not.
    expect(final.style?.counts.disclaimer).toBe(1);
    expect(systemOf(t.ai.requests[0])).toContain(`„${DISCLAIMER}”`);
    expect((await recordOf(final.generationId)).style).toEqual(final.style);
  });

  it("a campaign asset's events carry the check against its channel's rules", async () => {
    const campaign = await openCampaign(USER, {
      campaignName: 'Raport CFO',
      campaignType: ['Webinar'],
      primaryObjective: 'Zapisy na webinar.',
      keyMessages: 'Zamknięcie roku w trzy dni.',
      channels: ['Google Ads'],
    });
    const ad = '## Analiza\n\nCFO szukają pewności.\n\n## Tekst reklamy\n\nNagłówek: Tani raport dla CFO';
    t.ai.enqueue({ kind: 'text', text: ad });
    const url = campaignAssetsPaths.generate
      .replace(':campaignId', campaign.id)
      .replace(':channel', 'google-ads');
    const res = await call('POST', url, USER, {});
    expect(res.statusCode, res.body).toBe(200);
    const final = finalOf(parseEvents(res.body));
    expect(marked(final.style, 'banned', final.output.copy!)).toEqual([{ text: 'Tani', marks: 'Tani' }]);
    // The channel's disclaimer, asked for in the prompt written for the channel.
    expect(final.style?.counts.disclaimer).toBe(1);
    const system = systemOf(t.ai.requests.at(-1));
    expect(system).toContain('Tekst powstaje dla: Google Ads');
    expect(system).toContain(`„${DISCLAIMER}”`);
    expect((await recordOf(final.generationId)).style).toEqual(final.style);

    t.ai.enqueue({ kind: 'text', text: ad });
    const all = await call('POST', campaignGenerateAllPath(campaign.id), USER);
    expect(all.statusCode, all.body).toBe(200);
    const saved = all.body
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => generateAllEventSchema.parse(JSON.parse(line)))
      .find((event) => event.type === 'saved');
    expect(saved).toMatchObject({
      channel: 'google-ads',
      style: { version: 1, counts: { banned: 1, disclaimer: 1 } },
    });
  });

  it("the brief creator checks the assistant's answer and records it with the turn", async () => {
    t.ai.enqueue({ kind: 'object', value: briefChatTurn('To tania kampania? Jaki jest budżet?', {}, false) });
    const res = await call('POST', briefCreatorPaths.chatStream, USER, {
      message: 'Webinar dla CFO.',
      language: 'Polish',
    });
    expect(res.statusCode, res.body).toBe(200);
    const events: BriefChatEvent[] = res.body
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => briefChatEventSchema.parse(JSON.parse(line)));
    const final = events.at(-1);
    if (final?.type !== 'final') throw new Error(res.body);
    expect(marked(final.style, 'banned', final.response.response)).toEqual([
      { text: 'tania', marks: 'tania' },
    ]);
    const [row] = await t.database.db
      .select({ style: generations.style, brandVersion: generations.brandVersion })
      .from(generations)
      .where(eq(generations.generator, 'brief-creator'))
      .orderBy(sql`${generations.createdAt} desc`)
      .limit(1);
    expect(row).toEqual({ style: final.style, brandVersion: 1 });
  });
});

describe('a long profile', () => {
  it('still fits: the request succeeds, the block and the log say what was left out, the disclaimer is kept', async () => {
    const banned = Array.from({ length: 900 }, (_, i) => ({
      term: `zakazane${i}`,
      reason: `Powód numer ${i}: tak nie piszemy o naszych usługach.`,
      replacement: `dozwolone${i}`,
    }));
    const saved = await admin().save({ profile: brandProfileSample({ banned }), basedOn: 1, userId: null });
    expect(saved.version).toBe(2);
    const lines: { msg?: string; brandVersion?: number; omitted?: Record<string, number> }[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
          done();
        },
      }),
    );
    const app = await t.app({ logger });
    t.ai.enqueue({
      kind: 'text',
      text: `## Analiza\n\nCFO szukają pewności.\n\n## Tekst reklamy\n\nNagłówek: Raport dla CFO\n${DISCLAIMER}`,
    });
    const res = await t.generate('paid-ads', USER, undefined, app);
    expect(res.statusCode, res.body).toBe(200);
    const final = finalOf(parseEvents(res.body));
    expect(final.style).toMatchObject({ version: 2, counts: { disclaimer: 0 } });

    const system = systemOf(t.ai.requests[0]);
    expect(system).toContain('<profil_marki wersja="2">');
    expect(system).toContain(`„${DISCLAIMER}”`);
    const left = /Z braku miejsca pominięto tu: (\d+) zakazanych określeń/.exec(system);
    expect(left).not.toBeNull();
    const omitted = Number(left![1]);
    expect(omitted).toBeGreaterThan(0);
    expect(omitted).toBeLessThan(900);
    // Sent in the profile's order: the first terms are there, the last are the ones left out.
    expect(system).toContain('„zakazane0”');
    expect(system).not.toContain('„zakazane899”');

    const cut = lines.find((line) => line.msg === 'brand profile cut to fit the prompt');
    expect(cut).toMatchObject({ brandVersion: 2, omitted: { 'zakazanych określeń': omitted } });
    await app.close();
  }, 60_000);
});

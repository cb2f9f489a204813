import { styleRuleIds, type StyleCheck } from '@gem/contracts/brand-voice';
import {
  campaignAssetDetailsSchema,
  campaignAssetPath,
  campaignAssetsPath,
  campaignAssetsResponseSchema,
  campaignGenerateAllPath,
  generateAllEventSchema,
  type CampaignAsset,
  type GenerateAllEvent,
} from '@gem/contracts/campaign-assets';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandProfileSample, useAiHarness } from '../../../test/ai-harness';
import { generations } from '../../db/schema/index';
import { createBrandVoice } from '../../lib/brand-voice/brand-voice';
import { createInflection } from '../../lib/brand-voice/inflection';
import { styleForAsset } from './campaign-assets.service';
import { campaignCalls } from './campaigns.test-support';

/**
 * Issue 31 for campaign assets: each asset 'Generate all' saves carries the style check of its
 * text, and the asset (its list and its details) returns the stored check of the generation its
 * text was made from, so a reload shows it; its findings point into the asset's text (which is
 * kept trimmed), and an edit since, or a stored check that no longer reads, leaves it out. Through
 * the real app, the OpenAI-compatible test server and a real database, with a saved profile that
 * bans 'tani'.
 */
const h = useAiHarness();
const { call, openCampaign } = campaignCalls(h);
const inflection = createInflection();

beforeAll(async () => {
  await createBrandVoice({ db: h.database.db, inflection }).save({
    profile: brandProfileSample(),
    basedOn: null,
    userId: null,
  });
}, 60_000);
afterAll(() => inflection.close());

const launch = {
  campaignName: 'Tani start 2027',
  campaignType: ['Webinar'],
  primaryObjective: 'Demo requests from finance teams.',
  keyMessages: 'Close the books in three days.',
  channels: ['LinkedIn', 'X'],
};

const eventsOf = (body: string): GenerateAllEvent[] =>
  body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => generateAllEventSchema.parse(JSON.parse(line)));

async function assetsOf(user: string, campaignId: string): Promise<CampaignAsset[]> {
  const res = await call('GET', campaignAssetsPath(campaignId), user);
  expect(res.statusCode, res.body).toBe(200);
  return campaignAssetsResponseSchema.parse(res.json()).assets;
}

/** Each banned finding with what it marks in `text`. */
const banned = (style: StyleCheck | undefined, text: string) =>
  (style?.findings ?? [])
    .filter((f) => f.rule === 'banned')
    .map((f) => ({ text: f.text, marks: text.slice(f.start, f.end) }));

describe("campaign assets' style check", () => {
  it('Generate all sends each saved asset with its check, and the assets return it after', async () => {
    const campaign = await openCampaign('stylo', launch);
    // Leading blank lines: the asset keeps the text trimmed, the findings move with it.
    h.ai.enqueue(
      { kind: 'text', text: '\n\n  Tani doradca dla finansów. Oferujemy tanie audyty.' },
      { kind: 'text', text: 'Spokojny post o zamknięciu ksiąg.' },
    );
    const res = await call('POST', campaignGenerateAllPath(campaign.id), 'stylo');
    expect(res.statusCode, res.body).toBe(200);
    const saved = eventsOf(res.body).flatMap((e) => (e.type === 'saved' ? [e] : []));
    expect(saved.map((e) => e.channel).sort()).toEqual(['linkedin-post', 'x-post']);
    expect(saved.every((e) => e.style?.version === 1)).toBe(true);

    const assets = await assetsOf('stylo', campaign.id);
    const [post, x] = assets;
    const text = 'Tani doradca dla finansów. Oferujemy tanie audyty.';
    const mine = post?.text === text ? post : x!;
    const other = mine === post ? x! : post!;
    expect(mine.text).toBe(text);
    expect(banned(mine.style, mine.text)).toEqual([
      { text: 'Tani', marks: 'Tani' },
      { text: 'tanie', marks: 'tanie' },
    ]);
    expect(mine.style!.score).toBeLessThan(100);
    // The progress said the same as the asset says now.
    const event = saved.find((e) => e.channel === mine.channel)!;
    expect(event.style).toEqual(mine.style);
    expect(banned(other.style, other.text)).toEqual([]);
    expect(other.style).toMatchObject({ version: 1 });

    const details = await call('GET', campaignAssetPath(campaign.id, mine.channel), 'stylo');
    expect(campaignAssetDetailsSchema.parse(details.json()).style).toEqual(mine.style);
  });

  it('an asset generated on its own shows its check after a reload; an edit leaves it out, a restore brings it back', async () => {
    const campaign = await openCampaign('stylo', { ...launch, campaignName: 'Single', channels: ['X'] });
    h.ai.enqueue({ kind: 'text', text: 'Tania analiza dla CFO.' });
    const gen = await call('POST', `${campaignAssetPath(campaign.id, 'x-post')}/generate`, 'stylo', {});
    expect(gen.statusCode, gen.body).toBe(200);
    const [asset] = await assetsOf('stylo', campaign.id);
    expect(banned(asset!.style, asset!.text)).toEqual([{ text: 'Tania', marks: 'Tania' }]);

    const edit = await call('PUT', campaignAssetPath(campaign.id, 'x-post'), 'stylo', {
      text: 'Przystępna analiza dla CFO.',
      baseVersion: 1,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const [edited] = await assetsOf('stylo', campaign.id);
    expect(edited).toMatchObject({ version: 2, text: 'Przystępna analiza dla CFO.' });
    expect(edited!.style).toBeUndefined();

    const back = await call('POST', `${campaignAssetPath(campaign.id, 'x-post')}/restore`, 'stylo', {
      version: 1,
    });
    expect(back.statusCode, back.body).toBe(200);
    const [restored] = await assetsOf('stylo', campaign.id);
    expect(restored).toMatchObject({ version: 3, text: 'Tania analiza dla CFO.' });
    expect(restored!.style).toEqual(asset!.style);

    // A stored check that no longer reads (an old row) is left out; the asset still loads.
    await h.database.db
      .update(generations)
      .set({ style: { score: 'high', findings: 'none' } })
      .where(eq(generations.id, asset!.provenance!.generationId));
    const [old] = await assetsOf('stylo', campaign.id);
    expect(old).toMatchObject({ version: 3, text: 'Tania analiza dla CFO.' });
    expect(old!.style).toBeUndefined();
  });
});

describe('styleForAsset', () => {
  const check = (findings: StyleCheck['findings']): StyleCheck => ({
    findings,
    counts: {
      ...Object.fromEntries(styleRuleIds.map((rule) => [rule, 0])),
      banned: findings.length,
    } as StyleCheck['counts'],
    score: 90,
    version: 1,
  });
  const finding = (start: number, end: number, text: string) => ({
    id: `banned-${start}`,
    rule: 'banned' as const,
    start,
    end,
    text,
    message: 'm',
    reason: 'r',
  });

  it("moves the findings by what was trimmed at the start, and keeps a place at the text's end in it", () => {
    const written = '  Tani tekst.\n';
    const style = styleForAsset(check([finding(2, 6, 'Tani'), finding(14, 14, '')]), written, 'Tani tekst.');
    expect(style?.findings.map((f) => [f.start, f.end, f.text])).toEqual([
      [0, 4, 'Tani'],
      [11, 11, ''],
    ]);
  });

  it('is null for another text or a check that does not read', () => {
    expect(styleForAsset(check([]), 'Tani tekst.', 'Inny tekst.')).toBeNull();
    expect(styleForAsset({ score: 1 }, 'Tekst.', 'Tekst.')).toBeNull();
    expect(styleForAsset(null, 'Tekst.', 'Tekst.')).toBeNull();
  });
});

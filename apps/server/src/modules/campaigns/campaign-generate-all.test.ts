import {
  campaignAssetPath,
  campaignAssetsPath,
  campaignAssetsResponseSchema,
  campaignGenerateAllPath,
  generateAllEventSchema,
  type GenerateAllEvent,
} from '@gem/contracts/campaign-assets';
import { describe, expect, it } from 'vitest';
import { useAiHarness } from '../../../test/ai-harness';
import { campaignCalls } from './campaigns.test-support';

/**
 * 'Generate all' through the real app on a real database, against the OpenAI-compatible test
 * server: every asset the brief's channels call for, streamed with each asset's progress, within
 * the user's AI limits; a failure does not stop the others; the progress is in the database, so
 * another instance shows it.
 */
const h = useAiHarness();
const { call, openCampaign } = campaignCalls(h);

const launch = {
  campaignName: 'Launch 2027',
  campaignType: ['Webinar'],
  primaryObjective: 'Demo requests from finance teams.',
  keyMessages: 'Close the books in three days.',
  channels: ['LinkedIn', 'Newsletter', 'X'],
};

const eventsOf = (body: string): GenerateAllEvent[] =>
  body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => generateAllEventSchema.parse(JSON.parse(line)));

async function assetsOf(user: string, campaignId: string, app = h.main) {
  const res = await app.inject({
    method: 'GET',
    url: campaignAssetsPath(campaignId),
    headers: { authorization: await h.bearer(user) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return campaignAssetsResponseSchema.parse(res.json()).assets;
}

describe('Generate all', () => {
  it("makes every asset the brief's channels call for; one failure does not stop the others, and it can be retried", async () => {
    const campaign = await openCampaign('ola', launch);
    h.ai.enqueue(
      { kind: 'text', text: 'Pierwszy tekst kampanii.' },
      { kind: 'disconnect', text: 'Urwany tekst kampanii i dalej.', afterTokens: 2 },
      { kind: 'text', text: 'Trzeci tekst kampanii.' },
    );
    const res = await call('POST', campaignGenerateAllPath(campaign.id), 'ola');
    expect(res.statusCode, res.body).toBe(200);
    const events = eventsOf(res.body);
    expect(events[0]).toEqual({
      type: 'started',
      channels: ['linkedin-post', 'x-post', 'email-teaser'],
      busy: [],
    });
    expect(events.at(-1)).toEqual({ type: 'end', saved: 2, failed: 1 });
    const failed = events.find((e) => e.type === 'failed');
    expect(failed).toMatchObject({ error: { code: 'ai_unavailable' } });
    const failedChannel = failed?.type === 'failed' ? failed.channel : 'x-post';
    // Each asset's deltas carry its channel.
    for (const channel of ['linkedin-post', 'x-post', 'email-teaser'] as const)
      expect(events.some((e) => e.type === 'delta' && e.channel === channel)).toBe(true);

    const assets = await assetsOf('ola', campaign.id);
    expect(assets.map((a) => [a.channel, a.version > 0, a.generating])).toEqual([
      ['linkedin-post', failedChannel !== 'linkedin-post', null],
      ['x-post', failedChannel !== 'x-post', null],
      ['email-teaser', failedChannel !== 'email-teaser', null],
    ]);
    expect(assets.find((a) => a.channel === failedChannel)?.lastError).toEqual(expect.any(String));

    h.ai.enqueue({ kind: 'text', text: 'Tekst ponowiony.' });
    const retry = await call('POST', `${campaignAssetPath(campaign.id, failedChannel)}/generate`, 'ola', {});
    expect(retry.statusCode).toBe(200);
    expect((await assetsOf('ola', campaign.id)).find((a) => a.channel === failedChannel)).toMatchObject({
      version: 1,
      text: 'Tekst ponowiony.',
      lastError: null,
    });
  });

  it('runs no more at once than the user may (one here): each asset starts when the one before is saved', async () => {
    const single = await h.app({ limits: { perMinute: 1_000, concurrent: 1 } });
    const campaign = await openCampaign('pia', launch);
    const res = await single.inject({
      method: 'POST',
      url: campaignGenerateAllPath(campaign.id),
      headers: { authorization: await h.bearer('pia') },
    });
    const order = eventsOf(res.body)
      .filter((e) => e.type === 'delta' || e.type === 'saved')
      .map((e) => `${e.type === 'saved' ? 'saved' : 'text'} ${e.channel}`);
    const collapsed = order.filter((step, i) => step !== order[i - 1]);
    expect(collapsed).toEqual([
      'text linkedin-post',
      'saved linkedin-post',
      'text x-post',
      'saved x-post',
      'text email-teaser',
      'saved email-teaser',
    ]);
  });

  it('shows its progress on another instance, leaves an asset someone is generating to them, and needs a channel it knows', async () => {
    const other = await h.app();
    const campaign = await openCampaign('rea', launch);
    // Slow answers (under the harness's 5 s AI timeout), so all three are seen at once even on a
    // loaded machine.
    h.ai.enqueue({ kind: 'text', text: 'Powolny post.', firstTokenDelayMs: 4_200 });
    const one = call('POST', `${campaignAssetPath(campaign.id, 'linkedin-post')}/generate`, 'rea', {});
    await expect
      .poll(async () => (await assetsOf('rea', campaign.id))[0]?.generating !== null, { timeout: 5_000 })
      .toBe(true);

    h.ai.enqueue(
      { kind: 'text', text: 'Wolny X.', firstTokenDelayMs: 1_500 },
      { kind: 'text', text: 'Wolny teaser.', firstTokenDelayMs: 1_500 },
    );
    const all = call('POST', campaignGenerateAllPath(campaign.id), 'rea');
    // The other instance reads the same rows: all three are being generated.
    await expect
      .poll(async () => (await assetsOf('rea', campaign.id, other)).filter((a) => a.generating).length, {
        timeout: 5_000,
      })
      .toBe(3);
    const events = eventsOf((await all).body);
    expect(events[0]).toEqual({
      type: 'started',
      channels: ['x-post', 'email-teaser'],
      busy: ['linkedin-post'],
    });
    expect(events.at(-1)).toEqual({ type: 'end', saved: 2, failed: 0 });
    expect((await one).statusCode).toBe(200);
    expect((await assetsOf('rea', campaign.id)).map((a) => [a.channel, a.version, a.generating])).toEqual([
      ['linkedin-post', 1, null],
      ['x-post', 1, null],
      ['email-teaser', 1, null],
    ]);

    const print = await openCampaign('rea', {
      ...launch,
      campaignName: 'Print only',
      channels: ['Billboard'],
    });
    const none = await call('POST', campaignGenerateAllPath(print.id), 'rea');
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: { code: 'validation_failed' } });
    expect((none.json() as { error: { message: string } }).error.message).toMatch(
      /names no channel GEM writes for/,
    );
  }, 60_000);

  it('is refused to a reader and does not exist for anyone else', async () => {
    const campaign = await openCampaign('sue', launch);
    expect((await call('POST', campaignGenerateAllPath(campaign.id), 'stranger3')).statusCode).toBe(404);
    await call('PATCH', `/api/campaigns/${campaign.id}`, 'sue', { sharing: 'team' });
    expect((await call('POST', campaignGenerateAllPath(campaign.id), 'reader3')).statusCode).toBe(403);
  });
});

import {
  campaignAudiencePath,
  campaignAudienceResponseSchema,
  campaignSegmentPath,
  memberPreviewSchema,
  memberRunSchema,
} from '@gem/contracts/campaign-audience';
import {
  campaignAudienceBuilderPaths,
  campaignsResponseSchema as crmCampaignsResponseSchema,
} from '@gem/contracts/campaign-audience-builder';
import { campaignActivityPath, campaignActivityResponseSchema, campaignPath } from '@gem/contracts/campaigns';
import { describe, expect, it } from 'vitest';
import { useAiHarness } from '../../../test/ai-harness';
import { campaignCalls, issuesOf } from './campaigns.test-support';

/**
 * A campaign's audience through the real app on a real database with the embedded demo CRM: a
 * segment of the audience builder saved to the campaign, the dry run, the addition of its
 * contacts to the campaign's CRM campaign (idempotent, recorded). Who may do it: the one walk
 * over every campaign route (campaign-routes.walk.test.ts).
 */
const h = useAiHarness();
const { call, openCampaign } = campaignCalls(h);

const brief = {
  campaignName: 'Forum CFO 2027',
  campaignType: ['Event'],
  primaryObjective: 'Rejestracje dyrektorów finansowych.',
  channels: ['LinkedIn'],
};
const everyone = {
  subIndustries: [],
  roles: [],
  titles: [],
  workAreas: [],
  employeeBands: [],
  revenueBands: [],
};

async function crmCampaigns(user: string) {
  const res = await call('GET', `${campaignAudienceBuilderPaths.campaigns}?q=`, user);
  expect(res.statusCode, res.body).toBe(200);
  return crmCampaignsResponseSchema.parse(res.json()).campaigns;
}

describe('a campaign’s audience', () => {
  it('saves a segment, says how many are new, adds them once, and records each run', async () => {
    const campaign = await openCampaign('ann', brief);
    const [target, source] = await crmCampaigns('ann');
    const segment = {
      label: 'Non-responders of the last forum',
      report: { type: 'follow-up', campaignId: source!.id, segment: everyone, pastCampaignIds: [] },
      reportUrl: null,
    };
    const saved = await call('POST', campaignAudiencePath(campaign.id), 'ann', segment);
    expect(saved.statusCode, saved.body).toBe(200);
    const [savedSegment] = campaignAudienceResponseSchema.parse(saved.json()).segments;
    expect(savedSegment).toMatchObject({ label: 'Non-responders of the last forum', report: segment.report });

    const noTarget = await call(
      'POST',
      `${campaignSegmentPath(campaign.id, savedSegment!.id)}/preview`,
      'ann',
    );
    expect(noTarget.statusCode).toBe(400);
    expect(noTarget.json()).toMatchObject({
      error: {
        message:
          'This campaign has no CRM campaign yet. Set its CRM campaign ID in the campaign’s settings first.',
      },
    });

    await call('PATCH', campaignPath(campaign.id), 'ann', { crmCampaignId: target!.id });
    const preview = memberPreviewSchema.parse(
      (await call('POST', `${campaignSegmentPath(campaign.id, savedSegment!.id)}/preview`, 'ann')).json(),
    );
    expect(preview.crmCampaign.id).toBe(target!.id);
    expect(preview.total).toBeGreaterThan(0);
    expect(preview.newMembers + preview.alreadyMembers).toBe(preview.total);

    const first = await call('POST', `${campaignSegmentPath(campaign.id, savedSegment!.id)}/members`, 'ann');
    expect(first.statusCode, first.body).toBe(200);
    expect(memberRunSchema.parse(first.json())).toMatchObject({
      total: preview.total,
      added: preview.newMembers,
      alreadyMembers: preview.alreadyMembers,
      failedCount: 0,
      failed: [],
    });
    // Twice adds nobody twice.
    const again = memberRunSchema.parse(
      (await call('POST', `${campaignSegmentPath(campaign.id, savedSegment!.id)}/members`, 'ann')).json(),
    );
    expect(again).toMatchObject({ total: preview.total, added: 0, alreadyMembers: preview.total });
    const after = memberPreviewSchema.parse(
      (await call('POST', `${campaignSegmentPath(campaign.id, savedSegment!.id)}/preview`, 'ann')).json(),
    );
    expect(after).toMatchObject({ newMembers: 0, alreadyMembers: preview.total });

    const audience = campaignAudienceResponseSchema.parse(
      (await call('GET', campaignAudiencePath(campaign.id), 'ann')).json(),
    );
    expect(audience.runs.map((r) => [r.added, r.segmentLabel])).toEqual([
      [0, 'Non-responders of the last forum'],
      [preview.newMembers, 'Non-responders of the last forum'],
    ]);
    const activity = campaignActivityResponseSchema.parse(
      (await call('GET', campaignActivityPath(campaign.id), 'ann')).json(),
    ).activity;
    expect(activity[0]).toMatchObject({ action: 'members-added' });
    expect(activity[0]?.detail).toContain(`0 added to ${target!.name}`);
  });

  it('refuses a segment without a name or with an id that is not a CRM id, naming the field', async () => {
    const campaign = await openCampaign('ben', brief);
    const res = await call('POST', campaignAudiencePath(campaign.id), 'ben', {
      label: ' ',
      report: { type: 'follow-up', campaignId: 'short', segment: everyone, pastCampaignIds: [] },
    });
    expect(res.statusCode).toBe(400);
    const paths = (res.json() as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['body.label', 'body.report.campaignId']));
    expect(issuesOf(res)).toEqual(expect.arrayContaining(['Give the segment a name.']));
    expect(
      (await call('POST', `${campaignSegmentPath(campaign.id, 'nope')}/preview`, 'ben')).statusCode,
    ).toBe(404);
  });
});

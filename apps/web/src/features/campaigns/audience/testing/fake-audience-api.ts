// A campaign's audience as the local test server answers it (testing/api-server.ts), shaped and
// refused as the real server (modules/campaigns/campaign-audience.service.ts) does: the dry run
// and the addition refused with a 400 while the campaign has no CRM campaign, nobody added twice,
// each run recorded newest first, a refused contact retried on the next run.
import {
  campaignAudiencePath,
  campaignSegmentPath,
  saveSegmentRequestSchema,
  type MemberRun,
  type SavedSegment,
  type SaveSegmentRequest,
} from '@gem/contracts/campaign-audience';
import { beforeEach } from 'vitest';

import { json, type serveApi } from '@/testing/api-server';

import { CAMPAIGN_ID, ME, type fakeCampaignsApi } from '../../testing/fake-campaigns-api';

type Server = ReturnType<typeof serveApi>;
type Campaigns = ReturnType<typeof fakeCampaignsApi>;

const AT = '2026-03-14T10:30:00.000Z';
export const SEGMENT_ID = 'e0000000-0000-4000-8000-000000000001';
export const CRM_ID = '701000000000000AAA';
export const CRM_NAME = 'Spring Webinar 2026';

const NO_CRM_CAMPAIGN =
  'This campaign has no CRM campaign yet. Set its CRM campaign ID in the campaign’s settings first.';

export const savedSegment = (overrides: Partial<SavedSegment> = {}): SavedSegment => ({
  id: SEGMENT_ID,
  label: 'New prospects in the segment',
  report: {
    type: 'new-prospects',
    campaignId: CRM_ID,
    segment: {
      subIndustries: ['Banking'],
      roles: ['CFO'],
      titles: [],
      workAreas: [],
      employeeBands: [],
      revenueBands: [],
    },
    pastCampaignIds: [],
  },
  reportUrl: '/tools/campaign-audience-builder/report?type=new-prospects&campaignId=701000000000000AAA',
  savedBy: ME,
  savedAt: AT,
  ...overrides,
});

const refusal = (code: string, message: string) => ({ error: { code, message, requestId: 'req-test' } });

/**
 * Installs the audience routes of the campaign CAMPAIGN_ID before each test. Tests put segments
 * in `state.segments`, the segment's contacts in `state.contacts` (those the CRM refuses in
 * `state.refuses`), and read `state.saved`.
 */
export function fakeAudienceApi(server: Server, campaigns: Campaigns) {
  const state = {
    segments: [] as SavedSegment[],
    runs: [] as MemberRun[],
    /** The segment's contacts, by id and name. */
    contacts: [] as { id: string; name: string }[],
    /** Contact ids already members of the CRM campaign. */
    members: new Set<string>(),
    /** Contact ids the CRM refuses, with the reason. */
    refuses: {} as Record<string, string>,
    saved: [] as SaveSegmentRequest[],
  };
  const crmId = () => campaigns.state.campaigns.find((c) => c.id === CAMPAIGN_ID)?.crmCampaignId ?? null;
  const audience = () => ({ crmCampaignId: crmId(), segments: state.segments, runs: state.runs });

  beforeEach(() => {
    Object.assign(state, {
      segments: [],
      runs: [],
      contacts: [],
      members: new Set<string>(),
      refuses: {},
      saved: [],
    });
    const base = campaignAudiencePath(CAMPAIGN_ID);
    const segment = campaignSegmentPath(CAMPAIGN_ID, SEGMENT_ID);

    server.on('GET', base, (_req, _raw, res) => json(res, 200, audience()));
    server.on('POST', base, (_req, raw, res) => {
      const parsed = saveSegmentRequestSchema.safeParse(JSON.parse(raw));
      if (!parsed.success) return json(res, 400, refusal('validation_failed', parsed.error.message));
      state.saved.push(parsed.data);
      state.segments.push(
        savedSegment({ id: SEGMENT_ID, label: parsed.data.label, report: parsed.data.report }),
      );
      json(res, 200, audience());
    });
    server.on('DELETE', segment, (_req, _raw, res) => {
      state.segments = state.segments.filter((s) => s.id !== SEGMENT_ID);
      json(res, 200, audience());
    });
    server.on('POST', `${segment}/preview`, (_req, _raw, res) => {
      const id = crmId();
      if (!id) return json(res, 400, refusal('validation_failed', NO_CRM_CAMPAIGN));
      const already = state.contacts.filter((c) => state.members.has(c.id)).length;
      json(res, 200, {
        crmCampaign: { id, name: CRM_NAME },
        total: state.contacts.length,
        newMembers: state.contacts.length - already,
        alreadyMembers: already,
      });
    });
    server.on('POST', `${segment}/members`, (_req, _raw, res) => {
      const id = crmId();
      if (!id) return json(res, 400, refusal('validation_failed', NO_CRM_CAMPAIGN));
      const fresh = state.contacts.filter((c) => !state.members.has(c.id));
      const failed = fresh
        .filter((c) => state.refuses[c.id])
        .map((c) => ({
          contactId: c.id,
          name: c.name,
          code: 'FIELD_INTEGRITY_EXCEPTION',
          reason: state.refuses[c.id]!,
        }));
      const added = fresh.filter((c) => !state.refuses[c.id]);
      for (const c of added) state.members.add(c.id);
      const run: MemberRun = {
        id: `f0000000-0000-4000-8000-${String(state.runs.length + 1).padStart(12, '0')}`,
        segmentLabel: state.segments[0]?.label ?? '',
        crmCampaignId: id,
        by: ME,
        at: AT,
        total: state.contacts.length,
        added: added.length,
        alreadyMembers: state.contacts.length - fresh.length,
        failedCount: failed.length,
        failed,
      };
      state.runs.unshift(run);
      json(res, 200, run);
    });
  });

  return { state };
}

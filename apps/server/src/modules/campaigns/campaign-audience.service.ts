import {
  CAMPAIGN_SEGMENTS_MAX,
  MEMBER_FAILURES_LISTED,
  savedReportSchema,
  type CampaignAudienceResponse,
  type MemberPreview,
  type MemberRun,
  type SaveSegmentRequest,
  type SavedSegment,
} from '@gem/contracts/campaign-audience';
import { formatCount } from '@gem/contracts/format-number';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { campaignMemberRuns, campaignSegments } from '../../db/schema/index';
import {
  CrmAudienceTooLargeError,
  type Crm,
  type CrmMemberFailure,
  type CrmReportQuery,
} from '../../integrations/crm/crm';
import { AppError } from '../../lib/app-error';
import { crmCaller, type Logger } from '../../lib/crm-calls';
import { campaignFor, isUuid, type CampaignRow } from './campaigns.access';
import { peopleById, recordActivity, someone } from './campaigns.records';

/**
 * A campaign's audience (issue 29): the audience builder's segments saved to it, and their
 * contacts added to the campaign's CRM campaign through the Crm port: a dry run first, then the
 * addition (idempotent in the CRM: nobody is added twice), each addition recorded with who,
 * when, how many, and every contact the CRM refused, so none is lost and a second run retries
 * exactly them.
 */

type SegmentRow = typeof campaignSegments.$inferSelect;
type RunRow = typeof campaignMemberRuns.$inferSelect;

export type CampaignAudienceDeps = {
  db: Db;
  crm: Pick<Crm, 'provider' | 'campaignMembership' | 'addCampaignMembers'>;
};

const NO_CRM_CAMPAIGN =
  'This campaign has no CRM campaign yet. Set its CRM campaign ID in the campaign’s settings first.';

export function createCampaignAudience({ db, crm }: CampaignAudienceDeps) {
  const fromCrm = crmCaller(crm);

  async function segmentOf(campaign: CampaignRow, segmentId: string): Promise<SegmentRow> {
    const [row] = isUuid(segmentId)
      ? await db
          .select()
          .from(campaignSegments)
          .where(and(eq(campaignSegments.campaignId, campaign.id), eq(campaignSegments.id, segmentId)))
      : [];
    if (!row) throw new AppError(404, 'not_found', 'This campaign has no such segment.');
    return row;
  }

  function target(campaign: CampaignRow): string {
    if (!campaign.crmCampaignId) throw new AppError(400, 'validation_failed', NO_CRM_CAMPAIGN);
    return campaign.crmCampaignId;
  }

  const queryOf = (row: SegmentRow): CrmReportQuery => {
    const report = savedReportSchema.parse(row.report);
    return {
      type: report.type,
      campaignId: report.campaignId,
      segment: report.segment,
      pastCampaignIds: report.pastCampaignIds,
    };
  };

  /** A CRM call of the membership; a segment too large is a 400 in the port's words. */
  async function membership<T>(log: Logger, what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await fromCrm(log, what, call);
    } catch (err) {
      if (err instanceof CrmAudienceTooLargeError) throw new AppError(400, 'validation_failed', err.message);
      throw err;
    }
  }

  const noSuchCrmCampaign = (id: string) =>
    new AppError(400, 'validation_failed', `The CRM has no campaign with the id ${id}.`);

  function shownRun(row: RunRow, known: Map<string, { id: string; name: string }>): MemberRun {
    const failed = row.failed as CrmMemberFailure[];
    return {
      id: row.id,
      segmentLabel: row.segmentLabel,
      crmCampaignId: row.crmCampaignId,
      by: someone(row.byId, known),
      at: row.at.toISOString(),
      total: row.total,
      added: row.added,
      alreadyMembers: row.alreadyMembers,
      failedCount: failed.length,
      failed: failed.slice(0, MEMBER_FAILURES_LISTED),
    };
  }

  return {
    /** The saved segments (oldest first) and the additions (newest first). */
    async get(userId: string, campaignId: string): Promise<CampaignAudienceResponse> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'read');
      const segments = await db
        .select()
        .from(campaignSegments)
        .where(eq(campaignSegments.campaignId, campaign.id))
        .orderBy(campaignSegments.savedAt, campaignSegments.id);
      const runs = await db
        .select()
        .from(campaignMemberRuns)
        .where(eq(campaignMemberRuns.campaignId, campaign.id))
        .orderBy(desc(campaignMemberRuns.at), desc(campaignMemberRuns.id));
      const known = await peopleById(db, [...segments.map((s) => s.savedBy), ...runs.map((r) => r.byId)]);
      return {
        crmCampaignId: campaign.crmCampaignId,
        segments: segments.map((row): SavedSegment => ({
          id: row.id,
          label: row.label,
          report: savedReportSchema.parse(row.report),
          reportUrl: row.reportUrl,
          savedBy: someone(row.savedBy, known),
          savedAt: row.savedAt.toISOString(),
        })),
        runs: runs.map((row) => shownRun(row, known)),
      };
    },

    /** Saves a segment of the audience builder to the campaign (owner or editor). */
    async save(
      userId: string,
      campaignId: string,
      request: SaveSegmentRequest,
    ): Promise<CampaignAudienceResponse> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      await db.transaction(async (tx) => {
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(campaignSegments)
          .where(eq(campaignSegments.campaignId, campaign.id));
        if (n >= CAMPAIGN_SEGMENTS_MAX) {
          throw new AppError(
            400,
            'validation_failed',
            `A campaign keeps at most ${CAMPAIGN_SEGMENTS_MAX} segments. Remove one first.`,
          );
        }
        await tx.insert(campaignSegments).values({
          campaignId: campaign.id,
          label: request.label,
          report: request.report,
          reportUrl: request.reportUrl,
          savedBy: userId,
        });
        await recordActivity(tx, campaign.id, userId, 'segment-saved', request.label);
      });
      return this.get(userId, campaignId);
    },

    /** Removes a saved segment (owner or editor); its additions stay recorded. */
    async remove(userId: string, campaignId: string, segmentId: string): Promise<CampaignAudienceResponse> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      const segment = await segmentOf(campaign, segmentId);
      await db.transaction(async (tx) => {
        await tx.delete(campaignSegments).where(eq(campaignSegments.id, segment.id));
        await recordActivity(tx, campaign.id, userId, 'segment-removed', segment.label);
      });
      return this.get(userId, campaignId);
    },

    /** The dry run: how many of the segment's contacts are new to the CRM campaign, how many belong. */
    async preview(
      userId: string,
      campaignId: string,
      segmentId: string,
      log: Logger,
    ): Promise<MemberPreview> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      const segment = await segmentOf(campaign, segmentId);
      const crmCampaignId = target(campaign);
      const found = await membership(log, 'campaign membership', () =>
        crm.campaignMembership(crmCampaignId, queryOf(segment)),
      );
      if (!found) throw noSuchCrmCampaign(crmCampaignId);
      return {
        crmCampaign: { id: found.campaign.id, name: found.campaign.name },
        total: found.total,
        newMembers: found.newMembers,
        alreadyMembers: found.alreadyMembers,
      };
    },

    /**
     * Adds the segment's contacts to the CRM campaign and records the run. Those the CRM refuses
     * are listed with its reasons; the others stay added; running it again adds only the missing.
     */
    async addMembers(userId: string, campaignId: string, segmentId: string, log: Logger): Promise<MemberRun> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      const segment = await segmentOf(campaign, segmentId);
      const crmCampaignId = target(campaign);
      const result = await membership(log, 'add campaign members', () =>
        crm.addCampaignMembers(crmCampaignId, queryOf(segment)),
      );
      if (!result) throw noSuchCrmCampaign(crmCampaignId);
      const row = await db.transaction(async (tx) => {
        const [run] = await tx
          .insert(campaignMemberRuns)
          .values({
            campaignId: campaign.id,
            segmentLabel: segment.label,
            crmCampaignId,
            byId: userId,
            total: result.total,
            added: result.added,
            alreadyMembers: result.alreadyMembers,
            failed: result.failed,
          })
          .returning();
        const refused = result.failed.length > 0 ? `, ${formatCount(result.failed.length)} refused` : '';
        await recordActivity(
          tx,
          campaign.id,
          userId,
          'members-added',
          `${segment.label}: ${formatCount(result.added)} added to ${result.campaign.name}, ${formatCount(result.alreadyMembers)} already members${refused}`,
        );
        return run!;
      });
      return shownRun(row, await peopleById(db, [userId]));
    },
  };
}

export type CampaignAudience = ReturnType<typeof createCampaignAudience>;

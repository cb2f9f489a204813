import { z } from 'zod';

import { campaignIdSchema, reportTypes, segmentSchema } from './campaign-audience-builder';
import { campaignPath, campaignPersonSchema } from './campaigns';
import { storableText } from './storable-text';

/**
 * A campaign's audience (issue 29): the audience builder's segments saved to the campaign, and
 * their contacts added to the campaign's CRM campaign: first a dry run (how many are new, how
 * many belong already), then the addition, idempotent, each run recorded with who, when, how
 * many and which contacts the CRM refused.
 */

export const CAMPAIGN_SEGMENTS_MAX = 20;
export const SEGMENT_LABEL_MAX = 200;
/** The most refused contacts a run's answer lists (all are kept with the run). */
export const MEMBER_FAILURES_LISTED = 100;

export const campaignAudiencePaths = {
  /** GET the saved segments and the runs; POST a segment to save. */
  audience: '/api/campaigns/:campaignId/audience',
  /** DELETE a saved segment. */
  segment: '/api/campaigns/:campaignId/audience/:segmentId',
  /** POST: the dry run. */
  preview: '/api/campaigns/:campaignId/audience/:segmentId/preview',
  /** POST: add the segment's contacts to the CRM campaign. */
  members: '/api/campaigns/:campaignId/audience/:segmentId/members',
} as const;

export const campaignAudiencePath = (campaignId: string) => `${campaignPath(campaignId)}/audience`;
export const campaignSegmentPath = (campaignId: string, segmentId: string) =>
  `${campaignAudiencePath(campaignId)}/${encodeURIComponent(segmentId)}`;

/** The report a segment is: its type, the CRM campaign it was built for, its values and past campaigns. */
export const savedReportSchema = z.object({
  type: z.enum(reportTypes, { error: `The report type must be one of ${reportTypes.join(', ')}.` }),
  campaignId: campaignIdSchema,
  segment: segmentSchema,
  pastCampaignIds: z.array(campaignIdSchema).max(25).default([]),
});
export type SavedReport = z.infer<typeof savedReportSchema>;

export const saveSegmentRequestSchema = z.object({
  label: storableText('The name')
    .trim()
    .min(1, { error: 'Give the segment a name.' })
    .max(SEGMENT_LABEL_MAX, { error: `The name is too long: at most ${SEGMENT_LABEL_MAX} characters.` }),
  report: savedReportSchema,
  /** The report's link as the audience builder showed it. */
  reportUrl: z.string().max(4_000).nullable().default(null),
});
export type SaveSegmentRequest = z.infer<typeof saveSegmentRequestSchema>;

export const savedSegmentSchema = z.object({
  id: z.uuid(),
  label: z.string(),
  report: savedReportSchema,
  reportUrl: z.string().nullable(),
  savedBy: campaignPersonSchema,
  savedAt: z.iso.datetime({ offset: true }),
});
export type SavedSegment = z.infer<typeof savedSegmentSchema>;

export const memberFailureSchema = z.object({
  contactId: z.string(),
  name: z.string().nullable(),
  code: z.string(),
  reason: z.string(),
});

export const memberRunSchema = z.object({
  id: z.uuid(),
  segmentLabel: z.string(),
  crmCampaignId: z.string(),
  by: campaignPersonSchema,
  at: z.iso.datetime({ offset: true }),
  total: z.number().int(),
  added: z.number().int(),
  alreadyMembers: z.number().int(),
  failedCount: z.number().int(),
  /** The first MEMBER_FAILURES_LISTED refused contacts. */
  failed: z.array(memberFailureSchema),
});
export type MemberRun = z.infer<typeof memberRunSchema>;

export const campaignAudienceResponseSchema = z.object({
  crmCampaignId: z.string().nullable(),
  segments: z.array(savedSegmentSchema),
  /** Newest first. */
  runs: z.array(memberRunSchema),
});
export type CampaignAudienceResponse = z.infer<typeof campaignAudienceResponseSchema>;

export const memberPreviewSchema = z.object({
  crmCampaign: z.object({ id: z.string(), name: z.string() }),
  total: z.number().int(),
  newMembers: z.number().int(),
  alreadyMembers: z.number().int(),
});
export type MemberPreview = z.infer<typeof memberPreviewSchema>;

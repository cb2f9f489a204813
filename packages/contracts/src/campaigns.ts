import { z } from 'zod';

import { briefDataSchema, campaignTypes } from './brief-creator-data';
import { campaignIdSchema } from './campaign-audience-builder';
import { qrSettingsSchema } from './qr-settings';
import { storableText } from './storable-text';

/**
 * Campaigns (issue 29): a finished brief becomes a campaign, where its content is made, kept,
 * reviewed and handed over. This part: the campaign itself, its brief in versions, who may see
 * and change it, its landing page and QR code, and what happened to it. Assets, sources, the
 * audience and the pack have their own contracts (campaign-*.ts).
 */

/** Where a campaign stands; a new one is in planning. */
export const campaignStatuses = ['planning', 'active', 'completed', 'archived'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];
export const campaignStatusLabels: Record<CampaignStatus, string> = {
  planning: 'Planning',
  active: 'Active',
  completed: 'Completed',
  archived: 'Archived',
};

/** Who else sees a campaign: only its owner and editors, or the whole team (read only). */
export const campaignSharings = ['private', 'team'] as const;
export type CampaignSharing = (typeof campaignSharings)[number];

/** What the signed-in user may do with a campaign. */
export const campaignRoles = ['owner', 'editor', 'reader'] as const;
export type CampaignRole = (typeof campaignRoles)[number];

/** The most campaigns a list shows, and the longest search. */
export const CAMPAIGNS_LISTED = 100;
export const CAMPAIGN_SEARCH_MAX = 200;
export const CAMPAIGN_ACTIVITY_LISTED = 200;

export const campaignsPaths = {
  /** GET the campaigns the user may see (`?q=`, `?status=`, `?owner=`, `?campaignType=`); POST one from a finished brief. */
  campaigns: '/api/campaigns',
  /** GET one campaign (404 for anyone who may not see it); PATCH its name, status or sharing. */
  campaign: '/api/campaigns/:campaignId',
  /** PUT the brief as changed: a new version of it. GET lists the versions. */
  campaignBrief: '/api/campaigns/:campaignId/brief',
  /** GET what happened to the campaign, newest first. */
  campaignActivity: '/api/campaigns/:campaignId/activity',
  /** POST: a copy of a campaign the user may see, as their own (its brief's newest version as version 1). */
  campaignDuplicate: '/api/campaigns/:campaignId/duplicate',
  /** POST an editor by e-mail (the owner only). */
  campaignEditors: '/api/campaigns/:campaignId/editors',
  /** DELETE an editor (the owner only). */
  campaignEditor: '/api/campaigns/:campaignId/editors/:userId',
} as const;

export const campaignPath = (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}`;
export const campaignBriefPath = (campaignId: string) => `${campaignPath(campaignId)}/brief`;
export const campaignActivityPath = (campaignId: string) => `${campaignPath(campaignId)}/activity`;
export const campaignDuplicatePath = (campaignId: string) => `${campaignPath(campaignId)}/duplicate`;
export const campaignEditorsPath = (campaignId: string) => `${campaignPath(campaignId)}/editors`;
export const campaignEditorPath = (campaignId: string, userId: string) =>
  `${campaignEditorsPath(campaignId)}/${encodeURIComponent(userId)}`;

export const campaignPersonSchema = z.object({
  id: z.uuid(),
  /** The name the identity provider gave, else the e-mail address, else 'A GEM user'. */
  name: z.string(),
});
export type CampaignPerson = z.infer<typeof campaignPersonSchema>;

export const campaignSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  campaignType: z.array(z.enum(campaignTypes)),
  status: z.enum(campaignStatuses),
  sharing: z.enum(campaignSharings),
  owner: campaignPersonSchema,
  /** The signed-in user's role in it. */
  role: z.enum(campaignRoles),
  primaryObjective: z.string(),
  channels: z.array(z.string()),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type CampaignSummary = z.infer<typeof campaignSummarySchema>;

export const campaignSchema = campaignSummarySchema.extend({
  /** The finished brief it was opened from (null once that brief is gone). */
  finishedBriefId: z.uuid().nullable(),
  /** The brief as it stands: its latest version. */
  brief: briefDataSchema,
  briefVersion: z.number().int().positive(),
  editors: z.array(campaignPersonSchema),
  crmCampaignId: z.string().nullable(),
  landingUrl: z.string().nullable(),
  /** Its QR code's settings as chosen; null: the pack's defaults (200 pt at 300 DPI, a quiet zone). */
  qr: qrSettingsSchema.nullable(),
  /** The campaign it was copied from, when it is a copy (null once that one is gone). */
  duplicatedFrom: z.uuid().nullable(),
});
export type Campaign = z.infer<typeof campaignSchema>;

export const campaignsResponseSchema = z.object({ campaigns: z.array(campaignSummarySchema) });
export type CampaignsResponse = z.infer<typeof campaignsResponseSchema>;

export const campaignsQuerySchema = z.object({
  /** Part of the campaign's name; case and accents do not matter. */
  q: z
    .string()
    .trim()
    .max(CAMPAIGN_SEARCH_MAX, { error: `The search is too long: at most ${CAMPAIGN_SEARCH_MAX} characters.` })
    .optional(),
  status: z.enum(campaignStatuses, { error: 'Choose a status from the list.' }).optional(),
  /** `me`: the user's own; `others`: shared with the user by someone else. */
  owner: z.enum(['me', 'others'], { error: 'Choose whose campaigns: me or others.' }).optional(),
  campaignType: z.enum(campaignTypes, { error: 'Choose a campaign type from the list.' }).optional(),
});
export type CampaignsQuery = z.infer<typeof campaignsQuerySchema>;

export const createCampaignRequestSchema = z.object({
  finishedBriefId: z.uuid({ error: 'Choose a finished brief.' }),
});
export type CreateCampaignRequest = z.infer<typeof createCampaignRequestSchema>;

export const CAMPAIGN_NAME_MAX = 200;
export const LANDING_URL_MAX = 2_000;

/** A landing page: an http(s) address, written whole. */
export const landingUrlSchema = storableText('The landing page')
  .trim()
  .max(LANDING_URL_MAX, { error: `The landing page is too long: at most ${LANDING_URL_MAX} characters.` })
  .refine((value) => /^https?:\/\/[^\s/?#.]+(?:\.[^\s/?#.]+)+(?:[/?#]\S*)?$/i.test(value), {
    error: 'The landing page must be a whole web address, such as https://www.example.com/webinar.',
  });

export const updateCampaignRequestSchema = z
  .object({
    name: storableText('The name')
      .trim()
      .min(1, { error: 'The name is empty.' })
      .max(CAMPAIGN_NAME_MAX, { error: `The name is too long: at most ${CAMPAIGN_NAME_MAX} characters.` })
      .optional(),
    status: z.enum(campaignStatuses, { error: 'Choose a status from the list.' }).optional(),
    sharing: z.enum(campaignSharings, { error: 'Choose private or team.' }).optional(),
    /** The CRM campaign's 18-character id; null takes it off. */
    crmCampaignId: campaignIdSchema.nullable().optional(),
    /** null takes it off. */
    landingUrl: landingUrlSchema.nullable().optional(),
    /** The QR code's settings; null goes back to the defaults. */
    qr: qrSettingsSchema.nullable().optional(),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    error:
      'Say what to change: the name, the status, the sharing, the CRM campaign, the landing page or the QR code.',
  });
export type UpdateCampaignRequest = z.infer<typeof updateCampaignRequestSchema>;

export const saveCampaignBriefRequestSchema = z.object({
  brief: briefDataSchema,
  /** The version the change was made on: a newer one answers 409 with it, and nothing is lost. */
  baseVersion: z.number().int().positive(),
});
export type SaveCampaignBriefRequest = z.infer<typeof saveCampaignBriefRequestSchema>;

export const campaignBriefVersionSchema = z.object({
  version: z.number().int().positive(),
  brief: briefDataSchema,
  author: campaignPersonSchema,
  createdAt: z.iso.datetime({ offset: true }),
});
export type CampaignBriefVersion = z.infer<typeof campaignBriefVersionSchema>;
export const campaignBriefVersionsResponseSchema = z.object({
  versions: z.array(campaignBriefVersionSchema),
});

export const addCampaignEditorRequestSchema = z.object({
  email: z.email({ error: 'Enter the e-mail address of someone who has signed in to GEM.' }).max(320),
});
export type AddCampaignEditorRequest = z.infer<typeof addCampaignEditorRequestSchema>;

/** What can happen to a campaign, as its activity lists it. */
export const campaignActions = [
  'created',
  'brief-saved',
  'renamed',
  'status-changed',
  'sharing-changed',
  'editor-added',
  'editor-removed',
  'crm-campaign-set',
  'landing-page-set',
  'qr-code-set',
  'duplicated',
  'asset-generated',
  'asset-saved',
  'asset-conflict',
  'asset-status-changed',
  'asset-restored',
  'asset-utm-set',
  'source-added',
  'source-removed',
  'segment-saved',
  'segment-removed',
  'members-added',
] as const;
export type CampaignAction = (typeof campaignActions)[number];

export const campaignActivitySchema = z.object({
  id: z.uuid(),
  action: z.enum(campaignActions),
  actor: campaignPersonSchema,
  /** What the action changed, in words (e.g. 'Brief version 3', 'Planning → Active'). */
  detail: z.string(),
  at: z.iso.datetime({ offset: true }),
});
export type CampaignActivity = z.infer<typeof campaignActivitySchema>;
export const campaignActivityResponseSchema = z.object({ activity: z.array(campaignActivitySchema) });

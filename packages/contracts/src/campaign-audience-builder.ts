import { z } from 'zod';

import { storableText } from './generators';

/**
 * Campaign audience builder (spec §2 Campaign audience builder, §3 Segment generation result,
 * §4 Audience builder states, §5 Campaign ID, §7 `POST /api/sf/generate-boost-segments`, §8, §9;
 * issue 14): from a campaign in the CRM and a marketing goal, the segments to target next, each
 * with ready reports. The CRM is Salesforce or GEM's embedded demo CRM.
 */

export const campaignAudienceBuilderPaths = {
  /** POST `{ campaignId, topic }`; the segment generation result back (spec §7). */
  generate: '/api/sf/generate-boost-segments',
  /** GET `?q=`: recent campaigns for the picker. */
  campaigns: '/api/sf/campaigns',
  /** GET a report's contacts, a page at a time (embedded CRM only). Query: reportQuerySchema. */
  report: '/api/sf/report',
  /** GET the same report as a CSV file (embedded CRM only). */
  reportCsv: '/api/sf/report.csv',
} as const;

/** The web page a report of the embedded CRM opens (its query: reportQuerySchema, as strings). */
export const AUDIENCE_REPORT_PAGE = '/tools/campaign-audience-builder/report';

/** Spec §5 and §9. */
export const CAMPAIGN_ID_LENGTH = 18;
export const CAMPAIGN_ID_ERROR = 'Campaign ID must be exactly 18 characters';
/** Spec §8: what the screen shows when a generation fails (except an unknown campaign). */
export const AUDIENCE_BUILDER_ERROR = 'An error occurred while generating boost segments. Please try again.';
/** Spec §2: the Manual tab's text, spelled so. */
export const MANUAL_TAB_TEXT = 'Comming soon.';
/** Spec §9: how long 'Copied!' shows. */
export const COPIED_MS = 2_000;
/** The longest marketing goal accepted, in characters. */
export const TOPIC_MAX = 1_000;
/** Contacts per page on a report page. */
export const REPORT_PAGE_SIZE = 50;
/** The most values of one kind a segment may hold. */
export const SEGMENT_VALUES_MAX = 25;

/** Spec §5: keep only letters and digits, cut to 18 characters. */
export function sanitizeCampaignId(raw: string): string {
  return raw.replace(/[^a-z0-9]/gi, '').slice(0, CAMPAIGN_ID_LENGTH);
}

export const campaignIdSchema = z.string().regex(/^[a-z0-9]{18}$/i, { error: CAMPAIGN_ID_ERROR });

export const generateSegmentsRequestSchema = z.object({
  campaignId: campaignIdSchema,
  topic: storableText('The marketing goal')
    .trim()
    .min(1, { error: 'The marketing goal is empty.' })
    .max(TOPIC_MAX, { error: `The marketing goal is too long: at most ${TOPIC_MAX} characters.` }),
});
export type GenerateSegmentsRequest = z.input<typeof generateSegmentsRequestSchema>;

export const crmProviders = ['embedded', 'salesforce'] as const;
export type CrmProvider = (typeof crmProviders)[number];

/** A campaign as the picker lists it. */
export const campaignSummarySchema = z.object({
  /** The 18-character CRM id. */
  id: z.string(),
  name: z.string(),
  /** e.g. 'Webinar'; null when the CRM has none. */
  type: z.string().nullable(),
  /** YYYY-MM-DD, or null. */
  startDate: z.string().nullable(),
});
export type CampaignSummary = z.infer<typeof campaignSummarySchema>;

export const campaignsQuerySchema = z.object({
  /** Part of the name or id; blank for the most recent. */
  q: z.string().trim().max(100, { error: 'The search is too long: at most 100 characters.' }).default(''),
});

export const campaignsResponseSchema = z.object({
  campaigns: z.array(campaignSummarySchema),
  crm: z.enum(crmProviders),
  /** The embedded demo CRM: every record is fictional. */
  sample: z.boolean(),
});
export type CampaignsResponse = z.infer<typeof campaignsResponseSchema>;

/** The four kinds of value a segment is made of. */
export const segmentDimensions = ['subIndustries', 'roles', 'titles', 'workAreas'] as const;
export type SegmentDimension = (typeof segmentDimensions)[number];

export const segmentSchema = z.object({
  subIndustries: z.array(z.string().max(255)).max(SEGMENT_VALUES_MAX),
  roles: z.array(z.string().max(255)).max(SEGMENT_VALUES_MAX),
  titles: z.array(z.string().max(255)).max(SEGMENT_VALUES_MAX),
  workAreas: z.array(z.string().max(255)).max(SEGMENT_VALUES_MAX),
});
/**
 * Who a segment holds: contacts whose account's sub-industry is one of `subIndustries`, whose
 * role is one of `roles` or title one of `titles`, and whose work area is one of `workAreas`;
 * an empty list does not narrow.
 */
export type Segment = z.infer<typeof segmentSchema>;

/**
 * The report types, in the order the results show them:
 * - `new-prospects`: contacts in the segment who are not members of the campaign (invite them);
 * - `follow-up`: the campaign's members in the segment who have not responded yet;
 * - `past-responders`: contacts in the segment who responded to the recommended past campaigns
 *   and are not members of the campaign yet.
 */
export const reportTypes = ['new-prospects', 'follow-up', 'past-responders'] as const;
export type ReportType = (typeof reportTypes)[number];
export const reportTypeLabels: Record<ReportType, string> = {
  'new-prospects': 'New prospects',
  'follow-up': 'Follow-up',
  'past-responders': 'Past responders',
};

export const segmentReportSchema = z.object({
  type: z.enum(reportTypes),
  title: z.string(),
  /** Absolute (a Salesforce report), or a path on GEM starting with '/' (an embedded report). */
  url: z.string(),
  description: z.string(),
  /** How many contacts the report matches; null when the CRM could not count them. */
  reach: z.number().int().nonnegative().nullable(),
});
export type SegmentReport = z.infer<typeof segmentReportSchema>;

/** How one value (a sub-industry, a title…) splits the campaign's members. */
export const valueCountSchema = z.object({
  value: z.string(),
  responders: z.number().int().nonnegative(),
  nonResponders: z.number().int().nonnegative(),
});
export type ValueCount = z.infer<typeof valueCountSchema>;

/** A past campaign of the same type, with how it did. */
export const pastCampaignFactSchema = z.object({
  id: z.string(),
  name: z.string(),
  startDate: z.string().nullable(),
  objective: z.string().nullable(),
  lineOfService: z.string().nullable(),
  members: z.number().int().nonnegative(),
  responders: z.number().int().nonnegative(),
});
export type PastCampaignFact = z.infer<typeof pastCampaignFactSchema>;

/** What the segments were chosen from (the charts show it). */
export const campaignFactsSchema = z.object({
  campaign: z.object({
    id: z.string(),
    name: z.string(),
    type: z.string().nullable(),
    startDate: z.string().nullable(),
    objective: z.string().nullable(),
    lineOfService: z.string().nullable(),
  }),
  members: z.number().int().nonnegative(),
  responders: z.number().int().nonnegative(),
  /** Each list: the most frequent values among the campaign's members, most members first. */
  byIndustry: z.array(valueCountSchema),
  bySubIndustry: z.array(valueCountSchema),
  byTitle: z.array(valueCountSchema),
  byRole: z.array(valueCountSchema),
  byWorkArea: z.array(valueCountSchema),
  /** Past campaigns of the same type, best response rate first. */
  pastCampaigns: z.array(pastCampaignFactSchema),
});
export type CampaignFacts = z.infer<typeof campaignFactsSchema>;

/** Spec §3 Segment generation result, plus what the screen shows beyond it. */
export const generateSegmentsResponseSchema = z.object({
  explanation: z.string(),
  subIndustries: z.array(z.string()),
  roles: z.array(z.string()),
  titles: z.array(z.string()),
  workAreas: z.array(z.string()),
  campaigns: z.array(
    z.object({
      name: z.string(),
      objective: z.string(),
      lineOfService: z.string(),
    }),
  ),
  /** The lists joined with ', ', ready to paste into CRM filters. */
  subIndustriesString: z.string(),
  rolesString: z.string(),
  titlesString: z.string(),
  workAreasString: z.string(),
  approach: z.string(),
  reports: z.array(segmentReportSchema),
  /** Beyond the spec: what the segments were chosen from. */
  facts: campaignFactsSchema,
  crm: z.enum(crmProviders),
  /** The embedded demo CRM: every record is fictional. */
  sample: z.boolean(),
});
export type GenerateSegmentsResponse = z.infer<typeof generateSegmentsResponseSchema>;

/** One value or several (a repeated query parameter), as a list. */
const queryList = z
  .union([z.string().max(255), z.array(z.string().max(255)).max(SEGMENT_VALUES_MAX)])
  .optional()
  .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]));

/**
 * A report of the embedded CRM, as its page's URL and the report API take it: repeated
 * parameters for the lists (`subIndustry=A&subIndustry=B`), so a value may hold a comma.
 */
export const reportQuerySchema = z.object({
  type: z.enum(reportTypes, { error: `The report type must be one of ${reportTypes.join(', ')}.` }),
  campaignId: campaignIdSchema,
  subIndustry: queryList,
  role: queryList,
  title: queryList,
  workArea: queryList,
  /** The past campaigns a past-responders report looks at. */
  pastCampaign: z
    .union([campaignIdSchema, z.array(campaignIdSchema).max(SEGMENT_VALUES_MAX)])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
  /** From 1. */
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type ReportQuery = z.output<typeof reportQuerySchema>;

/**
 * A report's query as URL parameter pairs (the inverse of reportQuerySchema), without the page:
 * `new URLSearchParams(reportQueryEntries(report))`.
 */
export function reportQueryEntries(report: {
  type: ReportType;
  campaignId: string;
  segment: Segment;
  pastCampaignIds: readonly string[];
}): [string, string][] {
  const { segment } = report;
  return [
    ['type', report.type],
    ['campaignId', report.campaignId],
    ...segment.subIndustries.map((value): [string, string] => ['subIndustry', value]),
    ...segment.roles.map((value): [string, string] => ['role', value]),
    ...segment.titles.map((value): [string, string] => ['title', value]),
    ...segment.workAreas.map((value): [string, string] => ['workArea', value]),
    ...report.pastCampaignIds.map((id): [string, string] => ['pastCampaign', id]),
  ];
}

export const reportContactSchema = z.object({
  /** The CRM's contact id: the list goes back into the CRM by it. */
  id: z.string(),
  name: z.string(),
  /** Null when the CRM has none for the contact. */
  email: z.string().nullable(),
  title: z.string().nullable(),
  /** The CRM's id of the contact's account; null for a contact without one. */
  accountId: z.string().nullable(),
  account: z.string().nullable(),
  industry: z.string().nullable(),
  subIndustry: z.string().nullable(),
  /** The contact's latest campaign response, or null when they never responded. */
  lastResponse: z
    .object({
      campaignName: z.string(),
      /** YYYY-MM-DD. */
      respondedAt: z.string().nullable(),
    })
    .nullable(),
});
export type ReportContact = z.infer<typeof reportContactSchema>;

export const reportResponseSchema = z.object({
  type: z.enum(reportTypes),
  title: z.string(),
  description: z.string(),
  campaign: campaignSummarySchema,
  segment: segmentSchema,
  /** Every contact the report matches (the reach). */
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  contacts: z.array(reportContactSchema),
  /** The embedded demo CRM: every record is fictional. */
  sample: z.boolean(),
});
export type ReportResponse = z.infer<typeof reportResponseSchema>;

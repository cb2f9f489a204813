import { z } from 'zod';

import { formatCount } from './format-number';
import { storableText } from './storable-text';

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

/** The four kinds of value a segment is made of: the CRM's own strings. */
export const segmentDimensions = ['subIndustries', 'roles', 'titles', 'workAreas'] as const;
export type SegmentDimension = (typeof segmentDimensions)[number];

/**
 * A band of company size: accounts with `from` ≤ the CRM's number < `below` (no upper end when
 * `below` is null). Its key is what a segment, a report link and the model use.
 */
export type SizeBand = { key: string; from: number; below: number | null };

/** Bands of an account's employee count (Salesforce `NumberOfEmployees`). */
export const employeeBands = [
  { key: '1-49', from: 0, below: 50 },
  { key: '50-249', from: 50, below: 250 },
  { key: '250-999', from: 250, below: 1_000 },
  { key: '1000+', from: 1_000, below: null },
] as const satisfies readonly SizeBand[];
export type EmployeeBand = (typeof employeeBands)[number]['key'];

/** Bands of an account's annual revenue in the CRM's currency (Salesforce `AnnualRevenue`). */
export const revenueBands = [
  { key: '0-10M', from: 0, below: 10_000_000 },
  { key: '10M-50M', from: 10_000_000, below: 50_000_000 },
  { key: '50M-250M', from: 50_000_000, below: 250_000_000 },
  { key: '250M-1B', from: 250_000_000, below: 1_000_000_000 },
  { key: '1B+', from: 1_000_000_000, below: null },
] as const satisfies readonly SizeBand[];
export type RevenueBand = (typeof revenueBands)[number]['key'];

/** The two size dimensions of a segment: bands computed from the CRM's numbers. */
export const sizeDimensions = ['employeeBands', 'revenueBands'] as const;
export type SizeDimension = (typeof sizeDimensions)[number];
export const sizeBands: Record<SizeDimension, readonly SizeBand[]> = {
  employeeBands,
  revenueBands,
};
const employeeBandKeys = employeeBands.map((b) => b.key) as [EmployeeBand, ...EmployeeBand[]];
const revenueBandKeys = revenueBands.map((b) => b.key) as [RevenueBand, ...RevenueBand[]];

/** The band a number falls in; null for no number. */
export function bandOf(bands: readonly SizeBand[], value: number | null): string | null {
  if (value === null || !Number.isFinite(value)) return null;
  return bands.find((b) => value >= b.from && (b.below === null || value < b.below))?.key ?? null;
}

/** An amount in short: 12_000_000 → "12M", 1_500_000_000 → "1.5B", 48_300 → "48.3K". */
export function shortAmount(value: number): string {
  const [unit, size] = value >= 1e9 ? ['B', 1e9] : value >= 1e6 ? ['M', 1e6] : ['K', 1e3];
  return `${Number((value / size).toFixed(1))}${unit}`;
}

/**
 * A band as the page shows it: "50–249 employees", "1,000+ employees"; "PLN 10M–50M",
 * "under PLN 10M", "PLN 1B+" (the currency when the CRM names it).
 */
export function sizeBandLabel(dimension: SizeDimension, key: string, currency: string | null = null): string {
  const band = sizeBands[dimension].find((b) => b.key === key);
  if (!band) return key;
  if (dimension === 'employeeBands') {
    const from = formatCount(Math.max(1, band.from));
    return band.below === null ? `${from}+ employees` : `${from}–${formatCount(band.below - 1)} employees`;
  }
  const money = (value: number) => (currency ? `${currency} ${shortAmount(value)}` : shortAmount(value));
  if (band.below === null) return `${money(band.from)}+`;
  if (band.from === 0) return `under ${money(band.below)}`;
  return `${currency ? `${currency} ` : ''}${shortAmount(band.from)}–${shortAmount(band.below)}`;
}

export const segmentSchema = z.object({
  subIndustries: z.array(z.string().max(255)).max(SEGMENT_VALUES_MAX),
  roles: z.array(z.string().max(255)).max(SEGMENT_VALUES_MAX),
  titles: z.array(z.string().max(255)).max(SEGMENT_VALUES_MAX),
  workAreas: z.array(z.string().max(255)).max(SEGMENT_VALUES_MAX),
  employeeBands: z.array(z.enum(employeeBandKeys)).max(employeeBands.length),
  revenueBands: z.array(z.enum(revenueBandKeys)).max(revenueBands.length),
});
/**
 * Who a segment holds: contacts whose account's sub-industry is one of `subIndustries`, whose
 * role is one of `roles` or title one of `titles`, whose work area is one of `workAreas`, and
 * whose account's employee count and annual revenue fall in one of `employeeBands` and
 * `revenueBands`; an empty list does not narrow.
 */
export type Segment = z.infer<typeof segmentSchema>;
/** A segment whose size bands may be left out: they do not narrow then. */
export type SegmentInput = Omit<Segment, SizeDimension> & Partial<Pick<Segment, SizeDimension>>;

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
  /**
   * By the account's employee band and revenue band (values are band keys), in band order,
   * bands without members left out; empty when the CRM has no such number.
   */
  byEmployees: z.array(valueCountSchema),
  byRevenue: z.array(valueCountSchema),
  /** The currency of the revenue bands (ISO 4217), null when the CRM does not say. */
  revenueCurrency: z.string().nullable(),
  /** Past campaigns of the same type, best response rate first. */
  pastCampaigns: z.array(pastCampaignFactSchema),
});
export type CampaignFacts = z.infer<typeof campaignFactsSchema>;

/**
 * A figure in the AI's analysis (a share "37,5%", "30 z 80", a count "30 uczestników"), checked
 * against the facts GEM sent the model: it `matches` the CRM's numbers of a subject its sentence
 * names (`fact`: that subject's); it `contradicts` them (`fact`: the CRM's numbers of the subject
 * it was read against); or it is `unchecked`: hedged ("ponad 30%"), a count that may be a plan,
 * or about nothing GEM counts.
 */
export const analysisFigureSchema = z.object({
  /** Where it is in its sentence's text (UTF-16 offsets, end excluded). */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  verdict: z.enum(['matches', 'contradicts', 'unchecked']),
  fact: z
    .object({
      /** What the figure was read against: a value, a size band, a past campaign, the campaign. */
      subject: z.string(),
      members: z.number().int().nonnegative(),
      responders: z.number().int().nonnegative(),
    })
    .nullable(),
});
export type AnalysisFigure = z.infer<typeof analysisFigureSchema>;

export const analysisSentenceSchema = z.object({
  text: z.string(),
  figures: z.array(analysisFigureSchema),
});
export type AnalysisSentence = z.infer<typeof analysisSentenceSchema>;

/** A text of the model's, in paragraphs of sentences. */
export const checkedTextSchema = z.object({ paragraphs: z.array(z.array(analysisSentenceSchema)) });
export type CheckedText = z.infer<typeof checkedTextSchema>;

/** The AI's analysis as the page shows it: its language, and every figure checked. */
export const analysisSchema = z.object({
  /** Spec §1: the model is asked for Polish, whatever the page's language; some answer in English. */
  language: z.enum(['pl', 'en']),
  explanation: checkedTextSchema,
  approach: checkedTextSchema,
});
export type Analysis = z.infer<typeof analysisSchema>;

/** Spec §3 Segment generation result, plus what the screen shows beyond it. */
export const generateSegmentsResponseSchema = z.object({
  explanation: z.string(),
  subIndustries: z.array(z.string()),
  roles: z.array(z.string()),
  titles: z.array(z.string()),
  workAreas: z.array(z.string()),
  /** Beyond the spec: the size bands (keys; sizeBandLabel names them). */
  employeeBands: z.array(z.string()),
  revenueBands: z.array(z.string()),
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
  /** Beyond the spec: the explanation and the approach with their figures checked against the facts. */
  analysis: analysisSchema,
  /** Written by the built-in stand-in (no AI service is configured): an example, marked as such. */
  demo: z.literal(true).optional(),
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

/** Band keys, one or several, as a list. */
const bandList = <K extends string>(keys: readonly [K, ...K[]], what: string) => {
  const key = z.enum(keys, { error: `Each ${what} must be one of ${keys.join(', ')}.` });
  // A list first, so a wrong key's issue is the enum's own words.
  return z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(key).max(keys.length),
  );
};

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
  /** Employee bands (keys of employeeBands). */
  employees: bandList(employeeBandKeys, 'employee band'),
  /** Revenue bands (keys of revenueBands). */
  revenue: bandList(revenueBandKeys, 'revenue band'),
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
  segment: SegmentInput;
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
    ...(segment.employeeBands ?? []).map((value): [string, string] => ['employees', value]),
    ...(segment.revenueBands ?? []).map((value): [string, string] => ['revenue', value]),
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
  /** The account's employee count and annual revenue, when the CRM has them. */
  employees: z.number().int().nonnegative().nullable(),
  annualRevenue: z.number().nonnegative().nullable(),
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
  /** The currency of the revenue bands and figures (ISO 4217), null when the CRM does not say. */
  revenueCurrency: z.string().nullable(),
  /** Every contact the report matches (the reach). */
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  contacts: z.array(reportContactSchema),
  /** The embedded demo CRM: every record is fictional. */
  sample: z.boolean(),
});
export type ReportResponse = z.infer<typeof reportResponseSchema>;

import type {
  CampaignFacts,
  CampaignSummary,
  CrmProvider,
  ReportContact,
  ReportType,
  SegmentInput,
} from '@gem/contracts/campaign-audience-builder';

/**
 * The port the campaign audience builder is handed: the customer-relationship system where the
 * firm's campaigns, accounts and contacts live. Two adapters (GEM_CRM_PROVIDER): Salesforce
 * over its REST API (salesforce/), and GEM's embedded demo CRM in the database (embedded/).
 * Values (sub-industries, titles…) are the CRM's own strings; nothing is translated.
 */

/** What a report counts or lists: a report type over a campaign and a segment. */
export type CrmReportQuery = {
  type: ReportType;
  campaignId: string;
  /** Size bands left out do not narrow. */
  segment: SegmentInput;
  /** The past campaigns a past-responders report looks at (their responders). */
  pastCampaignIds: readonly string[];
};

/** The values that exist in the CRM, by kind: what a segment may be made of. */
export type CrmVocabulary = {
  subIndustries: string[];
  roles: string[];
  titles: string[];
  workAreas: string[];
  /** The size bands (keys, in band order) the CRM can tell: none when it has no such number. */
  employeeBands: string[];
  revenueBands: string[];
};

export type CampaignFactsOptions = {
  /** The most values kept per kind (by members, most first). */
  topValues: number;
  /** The most past campaigns of the same type (best response rate first). */
  pastCampaigns: number;
  /** The most values per kind in the vocabulary (most frequent first). */
  vocabularySize: number;
};

export type CrmCampaignFacts = {
  facts: CampaignFacts;
  /** The values a segment may use: at least every value in the facts. */
  vocabulary: CrmVocabulary;
};

/** Why a CRM call failed; its message is for logs, never for users. */
export type CrmFailure =
  /** Unreachable, 5xx, a body that is not the CRM's. */
  | 'unavailable'
  /** The CRM refused GEM's credentials (a bad client id or secret, a revoked app). */
  | 'auth'
  /** No answer within the deadline. */
  | 'timeout'
  /** The CRM rejected the request (a field that does not exist in this org, say): configuration. */
  | 'rejected';

export class CrmError extends Error {
  override name = 'CrmError';
  constructor(
    readonly failure: CrmFailure,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

export interface Crm {
  readonly provider: CrmProvider;
  /** True for the embedded demo CRM: every record is fictional. */
  readonly sample: boolean;
  /** The currency of accounts' annual revenue (ISO 4217), null when GEM is not told. */
  readonly revenueCurrency: string | null;
  /**
   * Campaigns whose name contains `q` (any case) or whose id starts with it; the most recent
   * (start date, newest first) when `q` is blank. At most `limit`.
   */
  listCampaigns(q: string, limit: number): Promise<CampaignSummary[]>;
  /** One campaign by its 18-character id; null when no campaign has it. */
  getCampaign(campaignId: string): Promise<CampaignSummary | null>;
  /** The campaign, its members' split by each kind of value, and past campaigns; null when no campaign has the id. */
  campaignFacts(campaignId: string, options: CampaignFactsOptions): Promise<CrmCampaignFacts | null>;
  /** How many contacts the report matches; null when the CRM cannot count it. */
  reach(report: CrmReportQuery): Promise<number | null>;
  /**
   * Where the report opens: a Salesforce report with the values as filter values, or GEM's own
   * report page; null when no report is configured for the type.
   */
  reportUrl(report: CrmReportQuery): string | null;
  /**
   * A page of the report's contacts (last name, first name, id order) and their count: the
   * embedded CRM's report page. Null from Salesforce.
   */
  reportContacts(
    report: CrmReportQuery,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; contacts: ReportContact[] } | null>;
  /**
   * Every contact of the report in the same order, at most `pageSize` at a time (the CSV file):
   * each page is read when the one before has been taken, and starts where it ended, so a
   * whole report is never held, nor read twice. Null from Salesforce.
   */
  reportPages(report: CrmReportQuery, options: { pageSize: number }): AsyncIterable<ReportContact[]> | null;
}

import type {
  CampaignFacts,
  CampaignSummary,
  CrmProvider,
  ReportContact,
  ReportType,
  SegmentInput,
} from '@gem/contracts/campaign-audience-builder';
import { formatCount } from '@gem/contracts/format-number';

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

/** The most contacts one membership call reads or adds (CrmMembershipOptions.maxContacts can only lower it). */
export const CRM_MEMBERSHIP_MAX = 50_000;

export type CrmMembershipOptions = {
  /** At most this many contacts (CRM_MEMBERSHIP_MAX when left out, never more). */
  maxContacts?: number;
};

/** The most contacts a membership call with these options takes. */
export const membershipLimit = (options: CrmMembershipOptions = {}) =>
  Math.max(0, Math.min(CRM_MEMBERSHIP_MAX, Math.floor(options.maxContacts ?? CRM_MEMBERSHIP_MAX)));

/**
 * What adding a report's contacts to a campaign would do (the dry run). The contacts are the
 * report's own, whether or not they are the campaign's members already: `new-prospects` is the
 * segment, `follow-up` the report campaign's members in it who did not respond,
 * `past-responders` its responders to the past campaigns. In Salesforce, contacts and leads
 * (when the mapping has lead fields), as the reach counts them.
 */
export type CrmMembershipPreview = {
  campaign: CampaignSummary;
  /** The contacts the report holds. */
  total: number;
  /** Not members of the campaign yet: what adding them would add. */
  newMembers: number;
  alreadyMembers: number;
};

/** A contact the CRM did not add, and why; adding again retries it (and skips the ones added). */
export type CrmMemberFailure = {
  /** The CRM's id of the contact (in Salesforce, of the contact or the lead). */
  contactId: string;
  /** The contact's name, when the CRM gave it. */
  name: string | null;
  /**
   * The CRM's code: Salesforce's status code for the row (FIELD_CUSTOM_VALIDATION_EXCEPTION…),
   * the database's SQLSTATE on the embedded CRM, or a CrmFailure when the request that carried
   * the contact got no usable answer (it may have been added: adding again finds out).
   */
  code: string;
  /** Why, in the CRM's words (a validation rule's message, say), or GEM's for a CrmFailure. */
  reason: string;
};

/** What adding a report's contacts to a campaign did: total = added + alreadyMembers + failed. */
export type CrmMembershipResult = {
  campaign: CampaignSummary;
  total: number;
  added: number;
  /** Members before, or made members by someone else meanwhile: left as they were. */
  alreadyMembers: number;
  failed: CrmMemberFailure[];
};

/** A report holds more contacts than one membership call takes; its message is for the user. */
export class CrmAudienceTooLargeError extends Error {
  override name = 'CrmAudienceTooLargeError';
  constructor(
    /** The most one call takes. */
    readonly limit: number,
    /** How many the report holds; null when the CRM was not asked to count past the limit. */
    readonly total: number | null,
  ) {
    const holds = total === null ? `more than ${formatCount(limit)}` : formatCount(total);
    super(
      `The segment holds ${holds} contacts; at most ${formatCount(limit)} can be added to a campaign at once. Narrow the segment and try again.`,
    );
  }
}

/** A contact's reason when the request that carried it failed as a whole, by how it failed. */
export const crmFailureReasons: Record<CrmFailure, string> = {
  unavailable:
    'The CRM did not answer the request that carried this contact. Add the segment again to retry.',
  timeout:
    'The CRM did not answer in time; this contact may have been added. Add the segment again to retry.',
  auth: 'The CRM refused GEM’s credentials. Ask an administrator to check the CRM connection.',
  rejected: 'The CRM refused the request that carried this contact.',
};

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
  /**
   * The dry run of addCampaignMembers: how many of the report's contacts are members of
   * `campaignId` already and how many would be added. Null when no campaign has the id.
   * Throws CrmAudienceTooLargeError past the limit, CrmError when the CRM fails.
   */
  campaignMembership(
    campaignId: string,
    report: CrmReportQuery,
    options?: CrmMembershipOptions,
  ): Promise<CrmMembershipPreview | null>;
  /**
   * Makes the report's contacts members of `campaignId`. Idempotent: a contact that is a member
   * already is counted, never added twice. A contact the CRM refuses is listed with its reason
   * and the others are added (what was added stays); a request that fails lists its contacts and
   * the rest as failed, so adding again retries exactly those. Null when no campaign has the
   * id. Throws CrmAudienceTooLargeError past the limit (nothing added); a CRM that fails while
   * the contacts are read throws as the other calls do (CrmError from Salesforce), nothing added.
   */
  addCampaignMembers(
    campaignId: string,
    report: CrmReportQuery,
    options?: CrmMembershipOptions,
  ): Promise<CrmMembershipResult | null>;
}

import {
  reportTypeLabels,
  reportTypes,
  REPORT_PAGE_SIZE,
  sizeBandLabel,
  type CampaignFacts,
  type ReportQuery,
  type ReportResponse,
  type ReportType,
  type Segment,
  type SegmentReport,
  type SizeDimension,
} from '@gem/contracts/campaign-audience-builder';
import { CrmError, type Crm, type CrmReportQuery } from '../../integrations/crm/crm';
import { AppError } from '../../lib/app-error';
import { noSuchCampaign, type FromCrm, type Logger } from '../../lib/crm-calls';
import type { ReportLeases } from './campaign-audience-builder.report-leases';

/**
 * A segment's reports: one per report type the CRM has, each with its link, its reach and its
 * wording; and the embedded CRM's report page, a page of a report's contacts read from the link's
 * query (the CSV file of the same report: campaign-audience-builder.csv-export.ts).
 */

/** Who asks for a report page or a CSV file. */
export type ReportContext = { userId: string; log: Logger };

export const REPORTS_IN_SALESFORCE =
  'Reports open in Salesforce: this GEM reads campaigns from Salesforce and has no report pages of its own.';

export const joined = (values: readonly string[]) => values.join(', ');

const listed = (values: readonly string[], max = 3) =>
  values.length <= max ? joined(values) : `${joined(values.slice(0, max))} and ${values.length - max} more`;

/** The segment in words, e.g. "sub-industries Automotive parts, Chemicals; roles or titles CFO". */
function segmentInWords(segment: Segment, currency: string | null): string {
  const people = [...segment.roles, ...segment.titles];
  const bands = (dimension: SizeDimension) =>
    segment[dimension].map((key) => sizeBandLabel(dimension, key, currency));
  const parts = [
    segment.subIndustries.length > 0 ? `sub-industries ${listed(segment.subIndustries)}` : null,
    people.length > 0 ? `roles or titles ${listed(people)}` : null,
    segment.workAreas.length > 0 ? `work areas ${listed(segment.workAreas)}` : null,
    segment.employeeBands.length > 0 ? `companies of ${listed(bands('employeeBands'))}` : null,
    segment.revenueBands.length > 0 ? `annual revenue ${listed(bands('revenueBands'))}` : null,
  ].filter((part) => part !== null);
  return parts.length === 0 ? 'all contacts' : parts.join('; ');
}

/** A report's title and what it holds, in words. */
export function reportWording(
  type: ReportType,
  campaign: { name: string },
  segment: Segment,
  pastCampaigns: number,
  currency: string | null = null,
): { title: string; description: string } {
  const who = segmentInWords(segment, currency);
  const name = `“${campaign.name}”`;
  const title = `${reportTypeLabels[type]}: ${listed(segment.subIndustries.length > 0 ? segment.subIndustries : [...segment.roles, ...segment.titles], 2) || 'all contacts'}`;
  switch (type) {
    case 'new-prospects':
      return {
        title,
        description: `Contacts in the segment (${who}) who are not members of ${name} yet: invite them.`,
      };
    case 'follow-up':
      return {
        title,
        description: `Members of ${name} in the segment (${who}) who have not responded yet: remind them.`,
      };
    case 'past-responders':
      return {
        title,
        description: `Contacts in the segment (${who}) who responded to ${pastCampaigns === 1 ? 'the recommended past campaign' : `the ${pastCampaigns} recommended past campaigns`} and are not members of ${name} yet.`,
      };
  }
}

export function createReports({
  crm,
  fromCrm,
  leases,
}: {
  crm: Crm;
  fromCrm: FromCrm;
  leases: ReportLeases;
}) {
  /** The reports of a segment, one per type the CRM has a report for, each with its reach. */
  async function reportsOf(
    facts: CampaignFacts,
    segment: Segment,
    pastCampaignIds: string[],
    log: Logger,
  ): Promise<SegmentReport[]> {
    const types = reportTypes.filter((type) => type !== 'past-responders' || pastCampaignIds.length > 0);
    const reports = await Promise.all(
      types.map(async (type): Promise<SegmentReport | null> => {
        const query: CrmReportQuery = { type, campaignId: facts.campaign.id, segment, pastCampaignIds };
        const url = crm.reportUrl(query);
        if (url === null) return null;
        let reach: number | null = null;
        try {
          reach = await crm.reach(query);
        } catch (err) {
          if (!(err instanceof CrmError)) throw err;
          log.warn({ err, crm: crm.provider, type }, 'could not count a report; shown without its reach');
        }
        return {
          type,
          url,
          reach,
          ...reportWording(type, facts.campaign, segment, pastCampaignIds.length, crm.revenueCurrency),
        };
      }),
    );
    return reports.filter((report) => report !== null);
  }

  /** A report's campaign and wording, for its page and its CSV file. */
  async function reportHeading(query: ReportQuery, log: Logger) {
    const campaign = await fromCrm(log, 'read a campaign', () => crm.getCampaign(query.campaignId));
    if (!campaign) throw new AppError(404, 'not_found', noSuchCampaign(query.campaignId));
    const segment: Segment = {
      subIndustries: query.subIndustry,
      roles: query.role,
      titles: query.title,
      workAreas: query.workArea,
      employeeBands: query.employees,
      revenueBands: query.revenue,
    };
    const report: CrmReportQuery = {
      type: query.type,
      campaignId: query.campaignId,
      segment,
      pastCampaignIds: query.pastCampaign,
    };
    return {
      campaign,
      report,
      segment,
      ...reportWording(query.type, campaign, segment, query.pastCampaign.length, crm.revenueCurrency),
    };
  }

  /** A page of a report's contacts (the embedded CRM's report page). */
  async function reportPage(query: ReportQuery, { userId, log }: ReportContext): Promise<ReportResponse> {
    const lease = await leases(userId, 'page');
    try {
      const heading = await reportHeading(query, log);
      const page = await fromCrm(log, 'list a report', () =>
        crm.reportContacts(heading.report, {
          offset: (query.page - 1) * REPORT_PAGE_SIZE,
          limit: REPORT_PAGE_SIZE,
        }),
      );
      if (page === null) throw new AppError(404, 'not_found', REPORTS_IN_SALESFORCE);
      return {
        type: query.type,
        title: heading.title,
        description: heading.description,
        campaign: heading.campaign,
        segment: heading.segment,
        revenueCurrency: crm.revenueCurrency,
        total: page.total,
        page: query.page,
        pageSize: REPORT_PAGE_SIZE,
        contacts: page.contacts,
        sample: crm.sample,
      };
    } finally {
      await lease.release();
    }
  }

  return { reportsOf, heading: reportHeading, page: reportPage };
}

type Reports = ReturnType<typeof createReports>;
export type SegmentReports = Reports['reportsOf'];
export type ReportHeading = Reports['heading'];

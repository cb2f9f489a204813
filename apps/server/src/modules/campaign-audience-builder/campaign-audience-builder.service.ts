import type { CampaignsResponse } from '@gem/contracts/campaign-audience-builder';
import type { Db } from '../../db/client';
import type { Crm } from '../../integrations/crm/crm';
import type { AiPlatform } from '../../lib/ai/ai-platform';
import type { Metrics } from '../../lib/metrics';
import { crmCaller, type Logger } from '../../lib/crm-calls';
import { createCsvExport } from './campaign-audience-builder.csv-export';
import { createSegmentGenerator } from './campaign-audience-builder.generate';
import { createReportLeases } from './campaign-audience-builder.report-leases';
import { createReports } from './campaign-audience-builder.reports';

/**
 * The campaign audience builder (issue 14): reads a campaign and who responded to it and to
 * past campaigns of its type from the CRM, asks the model for the segments to target next
 * (structured output whose lists may only hold values that exist in the CRM), and builds a
 * report per type for the segment with its reach (campaign-audience-builder.generate.ts). Also
 * the campaign picker, and the embedded CRM's report pages (campaign-audience-builder.reports.ts)
 * and CSV files (campaign-audience-builder.csv-export.ts), both within the user's report leases
 * (campaign-audience-builder.report-leases.ts).
 */

/** Campaigns the picker lists. */
const PICKER_SIZE = 20;

export function createCampaignAudienceBuilder({
  crm,
  ai,
  db,
  metrics,
}: {
  crm: Crm;
  ai: AiPlatform;
  /** Where the per-user report leases are counted (lib/user-leases.ts). */
  db: Db;
  metrics?: Pick<Metrics, 'crmExport' | 'crmExportPage'> | undefined;
}) {
  const fromCrm = crmCaller(crm);
  const leases = createReportLeases({ db, metrics });
  const reports = createReports({ crm, fromCrm, leases });

  return {
    /** The picker's campaigns: matching `q`, or the most recent. */
    async campaigns(q: string, log: Logger): Promise<CampaignsResponse> {
      const campaigns = await fromCrm(log, 'list campaigns', () => crm.listCampaigns(q, PICKER_SIZE));
      return { campaigns, crm: crm.provider, sample: crm.sample };
    },

    /** Spec §7 `POST /api/sf/generate-boost-segments`. */
    generate: createSegmentGenerator({ crm, ai, fromCrm, reportsOf: reports.reportsOf }),

    /** A page of a report's contacts (the embedded CRM's report page). */
    report: reports.page,

    /** The whole report as a CSV file, streamed a page at a time within the user's lease. */
    reportCsv: createCsvExport({ crm, fromCrm, leases, reportHeading: reports.heading, metrics }),
  };
}

export type CampaignAudienceBuilder = ReturnType<typeof createCampaignAudienceBuilder>;

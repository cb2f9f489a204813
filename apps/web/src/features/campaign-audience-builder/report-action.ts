import type { SaveSegmentRequest } from '@gem/contracts/campaign-audience';
import type { GenerateSegmentsResponse, SegmentReport } from '@gem/contracts/campaign-audience-builder';
import type { ReactNode } from 'react';

/** What a page adds to each report, given the report as a campaign's segment (Save to campaign). */
export type ReportAction = (save: SaveSegmentRequest) => ReactNode;

type Segment = SaveSegmentRequest['report']['segment'];

/**
 * A generated report as a campaign keeps it: its title as the name, its type, CRM campaign,
 * segment and past campaigns as the results hold them, and its link.
 */
export function savedReportOf(
  report: SegmentReport,
  campaignId: string,
  result: GenerateSegmentsResponse,
): SaveSegmentRequest {
  return {
    label: report.title,
    report: {
      type: report.type,
      campaignId,
      segment: {
        subIndustries: result.subIndustries,
        roles: result.roles,
        titles: result.titles,
        workAreas: result.workAreas,
        employeeBands: result.employeeBands as Segment['employeeBands'],
        revenueBands: result.revenueBands as Segment['revenueBands'],
      },
      pastCampaignIds: pastCampaignIdsOf(report, result),
    },
    reportUrl: report.url,
  };
}

/**
 * The past campaigns the report was made with: an embedded report's link names them; otherwise
 * the recommended campaigns, found by name among the facts' past campaigns.
 */
function pastCampaignIdsOf(report: SegmentReport, result: GenerateSegmentsResponse): string[] {
  if (report.url.startsWith('/')) {
    return new URL(report.url, 'http://gem.invalid').searchParams.getAll('pastCampaign');
  }
  const names = new Set(result.campaigns.map((campaign) => campaign.name));
  return result.facts.pastCampaigns.filter((past) => names.has(past.name)).map((past) => past.id);
}

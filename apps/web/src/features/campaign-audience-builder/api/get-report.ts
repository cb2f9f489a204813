import {
  campaignAudienceBuilderPaths,
  reportResponseSchema,
  type ReportResponse,
} from '@gem/contracts/campaign-audience-builder';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { withPage } from '../report-links';

/** One page of a report's contacts. `query` is the report's query string, without the page. */
export function getReport(query: string, page: number, signal?: AbortSignal): Promise<ReportResponse> {
  return api.get(`${campaignAudienceBuilderPaths.report}?${withPage(query, page)}`, {
    schema: reportResponseSchema,
    signal,
  });
}

export const reportQueryOptions = (query: string, page: number) =>
  queryOptions({
    queryKey: ['campaign-audience-builder', 'report', query, page],
    queryFn: ({ signal }) => getReport(query, page, signal),
  });

/** The page of the report; while the next page loads, the last one stays on screen. */
export function useReport(query: string, page: number) {
  return useQuery({ ...reportQueryOptions(query, page), placeholderData: keepPreviousData });
}

/** The whole report as a CSV file, through the API client (the bearer token rides in a header). */
export function downloadReportCsv(query: string): Promise<Blob> {
  return api.download(`${campaignAudienceBuilderPaths.reportCsv}?${query}`, { accept: 'text/csv' });
}

import {
  AUDIENCE_REPORT_PAGE,
  reportQueryEntries,
  type GenerateSegmentsResponse,
  type ReportType,
} from '@gem/contracts/campaign-audience-builder';

/**
 * A report's address as the user copies or opens it: a Salesforce report's own URL, or an
 * embedded report's path on GEM resolved against GEM's origin. An unusable URL stays as it is.
 */
export function absoluteReportUrl(url: string, origin: string = window.location.origin): string {
  try {
    return new URL(url, origin).href;
  } catch {
    return url;
  }
}

/** The report page's query as the API takes it: the page's own query without `page`. */
export function reportQueryOf(search: URLSearchParams): string {
  const query = new URLSearchParams(search);
  query.delete('page');
  return query.toString();
}

/** The page asked for in the address: a whole number from 1, else 1. */
export function reportPageOf(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The report's query with a page. */
export function withPage(query: string, page: number): string {
  const params = new URLSearchParams(query);
  params.set('page', String(page));
  return params.toString();
}

/**
 * The embedded report page of one type for a generation's segment: the page the server links
 * to (AUDIENCE_REPORT_PAGE with reportQueryEntries), built here for the tests and for links
 * the screen makes itself.
 */
export function reportPageUrl(
  type: ReportType,
  campaignId: string,
  result: Pick<GenerateSegmentsResponse, 'subIndustries' | 'roles' | 'titles' | 'workAreas'>,
  pastCampaignIds: readonly string[] = [],
): string {
  const query = new URLSearchParams(
    reportQueryEntries({
      type,
      campaignId,
      segment: {
        subIndustries: result.subIndustries,
        roles: result.roles,
        titles: result.titles,
        workAreas: result.workAreas,
      },
      pastCampaignIds,
    }),
  );
  return `${AUDIENCE_REPORT_PAGE}?${query}`;
}

/**
 * The CSV's file name from the report's title: lower-case letters, digits and dashes only, so
 * it is safe on every system ('New prospects: CFO Webinar' → 'new-prospects-cfo-webinar.csv').
 */
export function reportFileName(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80);
  // Dashes at the ends go; a loop, as a regex for both ends is quadratic.
  let start = 0;
  let end = slug.length;
  while (start < end && slug[start] === '-') start += 1;
  while (end > start && slug[end - 1] === '-') end -= 1;
  return `${slug.slice(start, end) || 'audience-report'}.csv`;
}

import type {
  CampaignSummary,
  ReportContact,
  ReportQuery,
  ReportType,
} from '@gem/contracts/campaign-audience-builder';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { Crm, CrmReportQuery } from '../../integrations/crm/crm';
import { AppError } from '../../lib/app-error';
import type { CrmExportOutcome, Metrics } from '../../lib/metrics';
import type { UserLease } from '../../lib/user-leases';
import type { FromCrm, Logger } from '../../lib/crm-calls';
import { REPORT_LEASE_MS, type ReportLeases } from './campaign-audience-builder.report-leases';
import {
  REPORTS_IN_SALESFORCE,
  type ReportContext,
  type ReportHeading,
} from './campaign-audience-builder.reports';

/**
 * The embedded CRM's report as a CSV file (up to CSV_MAX_ROWS contacts): read a page at a time
 * as the client takes the file, never whole in memory, while it holds one of the user's report
 * leases.
 */

/** The most rows a CSV file holds; a report with more says so in its last line. */
export const CSV_MAX_ROWS = 50_000;
/**
 * Contacts a CSV export reads from the CRM at a time. On the embedded database one page's
 * statement holds the event loop while it runs (a few ms on PostgreSQL, some tens on PGlite):
 * small enough that the server answers requests in between, large enough that a
 * 10,000-contact file takes about 70 statements (bench/crm-export.md).
 */
export const EXPORT_PAGE_SIZE = 150;
/** The ids and the e-mail first: the file goes into an e-mail tool or back into the CRM by them. */
export const CSV_HEADER = [
  'Contact ID',
  'Name',
  'E-mail',
  'Title',
  'Account ID',
  'Account',
  'Industry',
  'Sub-industry',
  'Employees',
  'Annual revenue',
  'Last response',
  'Responded on',
];

/** A CSV file's rows, as text: a cell that starts with =, +, -, @ is not run as a formula when a spreadsheet opens it. */
const csvText = (rows: string[][]) => stringify(rows, { escape_formulas: true, record_delimiter: 'windows' });

const csvRow = (c: ReportContact) => [
  c.id,
  c.name,
  c.email ?? '',
  c.title ?? '',
  c.accountId ?? '',
  c.account ?? '',
  c.industry ?? '',
  c.subIndustry ?? '',
  c.employees === null ? '' : String(c.employees),
  c.annualRevenue === null ? '' : String(c.annualRevenue),
  c.lastResponse?.campaignName ?? '',
  c.lastResponse?.respondedAt ?? '',
];

/** e.g. "webinar-cfo-2026-new-prospects.csv": the campaign's name in ASCII letters and digits. */
export function reportFileName(campaign: CampaignSummary, type: ReportType): string {
  const base = campaign.name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('-')
    .slice(0, 60);
  return `${base || campaign.id}-${type}.csv`;
}

export function createCsvExport({
  crm,
  fromCrm,
  leases,
  reportHeading,
  metrics,
}: {
  crm: Crm;
  fromCrm: FromCrm;
  leases: ReportLeases;
  reportHeading: ReportHeading;
  metrics?: Pick<Metrics, 'crmExport' | 'crmExportPage'> | undefined;
}) {
  /**
   * A whole report as CSV text, a page of the CRM's contacts at a time: the BOM and the header
   * row with the first page (a CRM failure before it is still an error answer), then each page
   * as the client takes the one before (the stream's backpressure pulls the next), never the
   * whole report in memory.
   */
  async function* csvChunks(
    report: CrmReportQuery,
    pages: AsyncIterable<ReportContact[]>,
    log: Logger,
  ): AsyncGenerator<string> {
    const pending = pages[Symbol.asyncIterator]();
    const next = () => fromCrm(log, 'export a report', () => pending.next());
    let head = `\uFEFF${csvText([CSV_HEADER])}`;
    let sent = 0;
    try {
      for (let page = await next(); !page.done; page = await next()) {
        metrics?.crmExportPage(page.value.length);
        const kept = page.value.slice(0, CSV_MAX_ROWS - sent);
        if (kept.length > 0) {
          sent += kept.length;
          yield head + csvText(kept.map(csvRow));
          head = '';
        }
        if (kept.length < page.value.length) {
          const total = await fromCrm(log, 'count a report', () => crm.reach(report));
          const more = total === null ? 'more contacts' : `${total - CSV_MAX_ROWS} more contacts`;
          yield csvText([[`… and ${more}: narrow the segment.`]]);
          return;
        }
      }
      if (head) yield head;
    } finally {
      // Ends the CRM's reading too when the client left mid-file.
      await pending.return?.();
    }
  }

  /**
   * The CSV file as a stream that holds the user's lease until it closes: sent whole, failed,
   * cut off at REPORT_LEASE_MS, or abandoned by the client (Fastify destroys it then).
   */
  function csvStream(chunks: AsyncGenerator<string>, lease: UserLease, log: Logger): Readable {
    let outcome: CrmExportOutcome = 'aborted';
    const body = Readable.from(
      (async function* counted() {
        try {
          yield* chunks;
          outcome = 'completed';
        } catch (err) {
          outcome = 'failed';
          throw err;
        }
      })(),
      // Bytes, not objects: at most one page waits in the stream ahead of the client.
      { objectMode: false },
    );
    // Headers and most of the file are out by then: the client sees a cut-off download.
    const deadline = setTimeout(() => {
      log.warn({ limitMs: REPORT_LEASE_MS }, 'a CSV export ran past its lease; stopped');
      body.destroy(new Error('the CSV export ran past its lease'));
    }, REPORT_LEASE_MS);
    deadline.unref();
    body.once('close', () => {
      clearTimeout(deadline);
      metrics?.crmExport(outcome);
      void lease.release();
    });
    return body;
  }

  /**
   * The whole report as a CSV file (up to CSV_MAX_ROWS contacts), streamed a page at a time;
   * the user's lease is held until the stream closes.
   */
  return async function reportCsv(
    query: ReportQuery,
    { userId, log }: ReportContext,
  ): Promise<{ fileName: string; body: Readable }> {
    const lease = await leases(userId, 'export');
    try {
      const heading = await reportHeading(query, log);
      const pages = crm.reportPages(heading.report, { pageSize: EXPORT_PAGE_SIZE });
      if (pages === null) throw new AppError(404, 'not_found', REPORTS_IN_SALESFORCE);
      return {
        fileName: reportFileName(heading.campaign, query.type),
        body: csvStream(csvChunks(heading.report, pages, log), lease, log),
      };
    } catch (err) {
      await lease.release();
      throw err;
    }
  };
}

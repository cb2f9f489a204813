import {
  reportTypeLabels,
  segmentDimensions,
  sizeBandLabel,
  sizeDimensions,
  type ReportResponse,
  type SegmentDimension,
  type SizeDimension,
} from '@gem/contracts/campaign-audience-builder';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { saveFile } from '@/components/ui/download-button';
import { Eyebrow } from '@/components/ui/eyebrow';
import { AlertIcon, ArrowLeftIcon, ArrowRightIcon, DownloadIcon } from '@/components/ui/icons';
import { InlineList } from '@/components/ui/inline-list';
import { Panel } from '@/components/ui/panel';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { ApiError } from '@/lib/api-client';
import { formatInteger } from '@/lib/format-number';

import { downloadReportCsv, useReport } from '../api/get-report';
import { contactsOf, formatAmount, formatDay } from '../format';
import { reportFileName, reportPageOf, reportQueryOf } from '../report-links';
import reportStyles from './audience-report.module.css';
import resultStyles from './audience-results.module.css';
import builderStyles from './campaign-audience-builder.module.css';

export const builderPath = '/tools/campaign-audience-builder';

const dimensionLabels: Record<SegmentDimension, string> = {
  subIndustries: 'Sub-industries',
  roles: 'Roles',
  titles: 'Titles',
  workAreas: 'Work areas',
};

const sizeLabels: Record<SizeDimension, string> = {
  employeeBands: 'Company size',
  revenueBands: 'Annual revenue',
};

/** "1,234 employees · PLN 48M revenue", or what of it the CRM has. */
function companySize(contact: ReportResponse['contacts'][number], currency: string | null): string | null {
  const parts = [
    contact.employees === null ? null : `${formatInteger(contact.employees)} employees`,
    contact.annualRevenue === null ? null : `${formatAmount(contact.annualRevenue, currency)} revenue`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/**
 * A report of the embedded CRM (its query in the address, as the results link to it): what it
 * is, the segment, how many it reaches, its contacts a page at a time, and the whole as a CSV.
 */
export function AudienceReport() {
  const [params, setParams] = useSearchParams();
  const query = reportQueryOf(params);
  const page = reportPageOf(params);
  const report = useReport(query, page);
  useDocumentTitle(report.data ? report.data.title : 'Audience report');

  function goTo(next: number) {
    const updated = new URLSearchParams(params);
    if (next === 1) updated.delete('page');
    else updated.set('page', String(next));
    setParams(updated);
  }

  if (report.isPending) {
    return (
      <p className={reportStyles.pageState} role="status">
        Loading the report…
      </p>
    );
  }
  if (!report.data) return <ReportProblem error={report.error} onRetry={() => void report.refetch()} />;

  const data = report.data;
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <div className={reportStyles.report}>
      <header className={resultStyles.reportHeader}>
        <div className={resultStyles.resultsHeading}>
          <div className={reportStyles.kicker}>
            <Eyebrow>{reportTypeLabels[data.type]}</Eyebrow>
            {data.sample ? <Badge tone="brand">Sample data</Badge> : null}
          </div>
          <h1 className={reportStyles.reportPageTitle}>{data.title}</h1>
          <p className={reportStyles.lead}>{data.description}</p>
        </div>
        <CsvButton query={query} title={data.title} disabled={data.total === 0} />
      </header>

      <dl className={reportStyles.reportFacts}>
        <div>
          <dt>Campaign</dt>
          <dd>
            {data.campaign.name}
            <span className={builderStyles.campaignMeta}>
              {data.campaign.type ? <span>{data.campaign.type}</span> : null}
              {formatDay(data.campaign.startDate) ? <span>{formatDay(data.campaign.startDate)}</span> : null}
              <span className={builderStyles.mono}>{data.campaign.id}</span>
            </span>
          </dd>
        </div>
        <div>
          <dt>Reach</dt>
          <dd className={reportStyles.reachBig}>{contactsOf(data.total)}</dd>
        </div>
      </dl>

      <SegmentSummary report={data} />

      <ContactsTable report={data} stale={report.isPlaceholderData} />

      {pages > 1 ? (
        <nav className={reportStyles.pager} aria-label="Pages of contacts">
          <Button
            variant="secondary"
            disabled={page <= 1 || report.isFetching}
            onClick={() => goTo(page - 1)}
          >
            <ArrowLeftIcon />
            Previous
          </Button>
          <p className={reportStyles.pagerText} aria-live="polite">
            Page {formatInteger(Math.min(page, pages))} of {formatInteger(pages)}
          </p>
          <Button
            variant="secondary"
            disabled={page >= pages || report.isFetching}
            onClick={() => goTo(page + 1)}
          >
            Next
            <ArrowRightIcon />
          </Button>
        </nav>
      ) : null}

      <ButtonLink to={builderPath} variant="secondary" className={reportStyles.backLink}>
        <ArrowLeftIcon />
        Back to the audience builder
      </ButtonLink>
    </div>
  );
}

function SegmentSummary({ report }: { report: ReportResponse }) {
  const headingId = useId();
  const used = [
    ...segmentDimensions
      .filter((d) => report.segment[d].length > 0)
      .map((d) => ({ key: d, label: dimensionLabels[d], values: report.segment[d] })),
    ...sizeDimensions
      .filter((d) => report.segment[d].length > 0)
      .map((d) => ({
        key: d,
        label: sizeLabels[d],
        values: report.segment[d].map((key) => sizeBandLabel(d, key, report.revenueCurrency)),
      })),
  ];
  return (
    <section className={resultStyles.resultSection} aria-labelledby={headingId}>
      <h2 id={headingId} className={resultStyles.sectionTitle}>
        Segment
      </h2>
      {used.length === 0 ? (
        <p className={builderStyles.muted}>Every contact: the segment does not narrow the report.</p>
      ) : (
        <dl className={reportStyles.segmentRows}>
          {used.map((dimension) => (
            <div key={dimension.key} className={reportStyles.segmentRow}>
              <dt className={resultStyles.partTitle}>{dimension.label}</dt>
              <dd>
                <InlineList>
                  {dimension.values.map((value) => (
                    <li key={value} className={resultStyles.chip}>
                      {value}
                    </li>
                  ))}
                </InlineList>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function ContactsTable({ report, stale }: { report: ReportResponse; stale: boolean }) {
  const headingId = useId();
  const first = (report.page - 1) * report.pageSize + 1;
  const last = first + report.contacts.length - 1;
  return (
    <section className={resultStyles.resultSection} aria-labelledby={headingId}>
      <div className={resultStyles.sectionHeader}>
        <h2 id={headingId} className={resultStyles.sectionTitle}>
          Contacts
        </h2>
        {report.contacts.length > 0 ? (
          <p className={builderStyles.muted} role="status">
            {formatInteger(first)}–{formatInteger(last)} of {formatInteger(report.total)}
          </p>
        ) : null}
      </div>
      {report.total === 0 ? (
        <div className={reportStyles.emptyReport}>
          <p className={reportStyles.emptyTitle}>No contact matches this report right now.</p>
          <p className={builderStyles.muted}>
            The CRM changes: contacts may have joined the campaign or left the segment since the report was
            made. Generate the segments again for a fresh report.
          </p>
        </div>
      ) : report.contacts.length === 0 ? (
        <p className={builderStyles.muted}>This page is past the end of the report.</p>
      ) : (
        <div
          className={reportStyles.tableBox}
          tabIndex={0}
          role="region"
          aria-labelledby={headingId}
          data-stale={stale || undefined}
        >
          <table className={reportStyles.table}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Title</th>
                <th scope="col">Account</th>
                <th scope="col">Company size</th>
                <th scope="col">Industry</th>
                <th scope="col">Last campaign response</th>
              </tr>
            </thead>
            <tbody>
              {report.contacts.map((contact) => (
                <tr key={contact.id}>
                  <th scope="row">
                    {contact.name}
                    <span className={`${reportStyles.cellNote} ${reportStyles.recordId}`}>{contact.id}</span>
                  </th>
                  <td>
                    {contact.email ? (
                      <a href={`mailto:${contact.email}`}>{contact.email}</a>
                    ) : (
                      <span className={reportStyles.cellNote}>No e-mail in the CRM</span>
                    )}
                  </td>
                  <td>{contact.title ?? '–'}</td>
                  <td>
                    {contact.account ?? '–'}
                    {contact.accountId ? (
                      <span className={`${reportStyles.cellNote} ${reportStyles.recordId}`}>
                        {contact.accountId}
                      </span>
                    ) : null}
                  </td>
                  <td>{companySize(contact, report.revenueCurrency) ?? '–'}</td>
                  <td>
                    {contact.industry ?? '–'}
                    {contact.subIndustry ? (
                      <span className={reportStyles.cellNote}>{contact.subIndustry}</span>
                    ) : null}
                  </td>
                  <td>
                    {contact.lastResponse ? (
                      <>
                        {contact.lastResponse.campaignName}
                        {contact.lastResponse.respondedAt ? (
                          <span className={reportStyles.cellNote}>
                            {formatDay(contact.lastResponse.respondedAt)}
                          </span>
                        ) : null}
                      </>
                    ) : (
                      <span className={reportStyles.cellNote}>Never responded</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** 'Download CSV': the whole report, fetched with the user's token and saved as a file. */
function CsvButton({ query, title, disabled }: { query: string; title: string; disabled: boolean }) {
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const [failure, setFailure] = useState('The CSV could not be downloaded. Try again.');
  async function download() {
    setState('busy');
    try {
      const blob = await downloadReportCsv(query);
      saveFile({ blob, name: reportFileName(title) });
      setState('idle');
    } catch (err) {
      // Over the user's limit of reports at once the server says how many are running.
      setFailure(
        err instanceof ApiError && err.status === 429
          ? err.message
          : 'The CSV could not be downloaded. Try again.',
      );
      setState('failed');
    }
  }
  return (
    <div className={reportStyles.csv}>
      <Button
        variant="brand"
        disabled={disabled || state === 'busy'}
        aria-busy={state === 'busy' || undefined}
        onClick={() => void download()}
      >
        <DownloadIcon />
        {state === 'busy' ? 'Preparing CSV…' : 'Download CSV'}
      </Button>
      {state === 'failed' ? (
        <p className={reportStyles.csvError} role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}

/** A report that cannot be shown: a bad link (400), one GEM does not serve (404), or a failure. */
function ReportProblem({ error, onRetry }: { error: Error | null; onRetry: () => void }) {
  const status = error instanceof ApiError ? error.status : null;
  const title =
    status === 400
      ? 'This report link is not valid'
      : status === 404
        ? 'This report is not available'
        : 'The report could not be loaded';
  const issues =
    status === 400 && error instanceof ApiError
      ? [...new Set(error.issues.map((issue) => issue.message))]
      : [];
  return (
    <Panel elevation="flat" accent className={reportStyles.problemPage} role="alert">
      <AlertIcon className={reportStyles.problemIcon} />
      <div className={reportStyles.problemText}>
        <h1 className={reportStyles.reportPageTitle}>{title}</h1>
        <p>{error?.message ?? 'GEM did not answer.'}</p>
        {issues.length > 0 ? (
          <ul className={reportStyles.issues}>
            {issues.map((issue) => (
              <li key={issue}>{issue}</li>
            ))}
          </ul>
        ) : null}
        {status === 400 ? (
          <p className={builderStyles.muted}>Open the report again from the audience builder’s results.</p>
        ) : null}
        <div className={resultStyles.reportActions}>
          {status === 400 || status === 404 ? null : (
            <Button variant="primary" onClick={onRetry}>
              Try again
            </Button>
          )}
          <ButtonLink to={builderPath} variant="secondary">
            <ArrowLeftIcon />
            Back to the audience builder
          </ButtonLink>
        </div>
      </div>
    </Panel>
  );
}

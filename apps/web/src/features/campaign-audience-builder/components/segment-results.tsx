import {
  reportTypeLabels,
  reportTypes,
  sizeBandLabel,
  type GenerateSegmentsResponse,
  type SegmentDimension,
  type SizeDimension,
} from '@gem/contracts/campaign-audience-builder';
import { lazy, Suspense, useId, type ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { CopyButton } from '@/components/ui/copy-button';
import { Eyebrow } from '@/components/ui/eyebrow';
import { InlineList } from '@/components/ui/inline-list';
import { OutputSurface } from '@/components/ui/output-surface';
import { Split } from '@/components/ui/split';
import { formatInteger } from '@/lib/format-number';

import { formatDay, rateOf } from '../format';
import { AnalysisBody, AnalysisLabels } from './ai-analysis';
import reportStyles from './audience-report.module.css';
import resultStyles from './audience-results.module.css';
import builderStyles from './campaign-audience-builder.module.css';
import type { ReportAction } from '../report-action';
import { savedReportOf } from '../report-action';
import { ReportCard } from './report-card';

// The charts bring visx: loaded when there are results to draw, not with the form.
const FactsCharts = lazy(() => import('./facts-charts').then((module) => ({ default: module.FactsCharts })));

const dimensionLabels: Record<SegmentDimension, string> = {
  subIndustries: 'Sub-industries',
  roles: 'Roles',
  titles: 'Titles',
  workAreas: 'Work areas',
};

/** The size dimensions, and the facts that say whether the CRM has the number at all. */
const sizeLabels: Record<SizeDimension, string> = {
  employeeBands: 'Company size',
  revenueBands: 'Annual revenue',
};
const sizeFacts = { employeeBands: 'byEmployees', revenueBands: 'byRevenue' } as const;

const joinedOf: Record<SegmentDimension, keyof GenerateSegmentsResponse> = {
  subIndustries: 'subIndustriesString',
  roles: 'rolesString',
  titles: 'titlesString',
  workAreas: 'workAreasString',
};

/** A titled part of the results. */
function ResultSection({
  title,
  description,
  action,
  children,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className={resultStyles.resultSection} aria-labelledby={headingId}>
      <div className={resultStyles.sectionHeader}>
        <div className={resultStyles.sectionText}>
          <h3 id={headingId} className={resultStyles.sectionTitle}>
            {title}
          </h3>
          {description ? <p className={builderStyles.muted}>{description}</p> : null}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

/**
 * A generation's results: the campaign and its numbers, the charts, the AI's analysis, the
 * segment, the past campaigns it recommends, and the reports by type.
 */
export function SegmentResults({
  result,
  campaignId,
  reportAction,
}: {
  result: GenerateSegmentsResponse;
  campaignId: string;
  /** What the page adds to each report (Save to campaign), given the report as a segment to save. */
  reportAction?: ReportAction;
}) {
  const headingId = useId();
  const { facts } = result;
  const campaign = facts.campaign;
  const startDay = formatDay(campaign.startDate);
  const reportsByType = reportTypes
    .map((type) => ({ type, reports: result.reports.filter((report) => report.type === type) }))
    .filter((group) => group.reports.length > 0);

  return (
    <OutputSurface as="article" aria-labelledby={headingId}>
      <header className={resultStyles.resultsHeader}>
        <div className={resultStyles.resultsHeading}>
          <Eyebrow>Segments for</Eyebrow>
          <h2 id={headingId} className={resultStyles.resultsTitle}>
            {campaign.name}
          </h2>
          <p className={resultStyles.campaignFacts}>
            {[campaign.type, startDay, campaign.lineOfService].filter(Boolean).join(' · ')}
            {campaign.type || startDay || campaign.lineOfService ? ' · ' : null}
            <span className={builderStyles.mono}>{campaignId}</span>
          </p>
          {campaign.objective ? <p className={builderStyles.muted}>Objective: {campaign.objective}</p> : null}
        </div>
        {result.sample ? <Badge tone="brand">Sample data</Badge> : null}
      </header>

      <dl className={resultStyles.stats}>
        <div className={resultStyles.stat}>
          <dt>Members</dt>
          <dd>{formatInteger(facts.members)}</dd>
        </div>
        <div className={resultStyles.stat}>
          <dt>Responders</dt>
          <dd>{formatInteger(facts.responders)}</dd>
        </div>
        <div className={resultStyles.stat}>
          <dt>Response rate</dt>
          <dd>{rateOf(facts.responders, facts.members)}</dd>
        </div>
      </dl>

      {facts.members > 0 && facts.responders === 0 ? (
        <p className={resultStyles.note}>
          No member has responded yet (the campaign may not have taken place), so the segments lean on past
          campaigns of the same type.
        </p>
      ) : null}

      {facts.bySubIndustry.length > 0 || facts.byTitle.length > 0 || facts.byEmployees.length > 0 ? (
        <ResultSection
          title="Who responded"
          description="The campaign’s members, the most frequent values first."
        >
          <Suspense fallback={<p className={builderStyles.muted}>Drawing the charts…</p>}>
            <FactsCharts facts={facts} />
          </Suspense>
        </ResultSection>
      ) : null}

      <ResultSection
        title="AI analysis"
        description="Why these segments, and how to approach them."
        action={<AnalysisLabels language={result.analysis.language} demo={result.demo === true} />}
      >
        <AnalysisBody analysis={result.analysis} />
      </ResultSection>

      <ResultSection title="Segment" description="Paste a list into your CRM’s filters as it is.">
        <Split gap="md" stackBelow="phone">
          {(Object.keys(dimensionLabels) as SegmentDimension[]).map((dimension) => (
            <SegmentList
              key={dimension}
              label={dimensionLabels[dimension]}
              values={result[dimension]}
              joined={String(result[joinedOf[dimension]])}
            />
          ))}
          {(Object.keys(sizeLabels) as SizeDimension[])
            // A size the CRM keeps no number for is no dimension here.
            .filter((dimension) => facts[sizeFacts[dimension]].length > 0 || result[dimension].length > 0)
            .map((dimension) => {
              const labels = result[dimension].map((key) =>
                sizeBandLabel(dimension, key, facts.revenueCurrency),
              );
              return (
                <SegmentList
                  key={dimension}
                  label={sizeLabels[dimension]}
                  values={labels}
                  joined={labels.join(', ')}
                />
              );
            })}
        </Split>
      </ResultSection>

      {result.campaigns.length > 0 ? (
        <ResultSection
          title="Past campaigns to learn from"
          description="Campaigns of the same kind whose responders match the segment."
        >
          <ul className={resultStyles.pastList}>
            {result.campaigns.map((past, index) => (
              <li key={`${past.name}-${index}`} className={resultStyles.pastCard}>
                <p className={resultStyles.pastName}>{past.name}</p>
                <dl className={resultStyles.pastFacts}>
                  <div>
                    <dt>Objective</dt>
                    <dd>{past.objective || '–'}</dd>
                  </div>
                  <div>
                    <dt>Line of service</dt>
                    <dd>{past.lineOfService || '–'}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        </ResultSection>
      ) : null}

      <ResultSection
        title="Reports"
        description={
          result.crm === 'salesforce'
            ? 'Salesforce reports for the segment. Copy a link to share it, or open it.'
            : 'Lists of contacts for the segment. Copy a link to share it, or open it.'
        }
      >
        {reportsByType.length === 0 ? (
          <p className={builderStyles.muted}>No report could be made for this segment.</p>
        ) : (
          <div className={resultStyles.reportGroups}>
            {reportsByType.map((group) => (
              <ReportGroup key={group.type} title={reportTypeLabels[group.type]}>
                {group.reports.map((report) => (
                  <li key={report.url}>
                    <ReportCard
                      report={report}
                      action={reportAction?.(savedReportOf(report, campaignId, result))}
                    />
                  </li>
                ))}
              </ReportGroup>
            ))}
          </div>
        )}
      </ResultSection>

      {facts.pastCampaigns.length > 0 ? (
        <ResultSection
          title="Past campaigns compared"
          description={`Campaigns of the same type${campaign.type ? ` (${campaign.type})` : ''}, best response rate first.`}
        >
          <div
            className={reportStyles.tableBox}
            tabIndex={0}
            role="region"
            aria-label="Table of past campaigns"
          >
            <table className={reportStyles.table}>
              <thead>
                <tr>
                  <th scope="col">Campaign</th>
                  <th scope="col">Start</th>
                  <th scope="col">Line of service</th>
                  <th scope="col" className={reportStyles.number}>
                    Members
                  </th>
                  <th scope="col" className={reportStyles.number}>
                    Responders
                  </th>
                  <th scope="col" className={reportStyles.number}>
                    Rate
                  </th>
                </tr>
              </thead>
              <tbody>
                {facts.pastCampaigns.map((past) => (
                  <tr key={past.id}>
                    <th scope="row">{past.name}</th>
                    <td>{formatDay(past.startDate) ?? '–'}</td>
                    <td>{past.lineOfService ?? '–'}</td>
                    <td className={reportStyles.number}>{formatInteger(past.members)}</td>
                    <td className={reportStyles.number}>{formatInteger(past.responders)}</td>
                    <td className={reportStyles.number}>{rateOf(past.responders, past.members)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </ResultSection>
      ) : null}
    </OutputSurface>
  );
}

function ReportGroup({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className={resultStyles.reportGroup} aria-labelledby={headingId}>
      <h4 id={headingId} className={resultStyles.partTitle}>
        {title}
      </h4>
      <ul className={resultStyles.reportList}>{children}</ul>
    </section>
  );
}

/** One kind of value of the segment as chips, and the list as text to copy. */
function SegmentList({
  label,
  values,
  joined,
}: {
  label: string;
  values: readonly string[];
  joined: string;
}) {
  const headingId = useId();
  return (
    <section className={resultStyles.dimension} aria-labelledby={headingId}>
      <div className={resultStyles.dimensionHeader}>
        <h4 id={headingId} className={resultStyles.partTitle}>
          {label} <span className={resultStyles.count}>{values.length}</span>
        </h4>
        {values.length > 0 ? <CopyButton text={joined} label="Copy list" describedBy={headingId} /> : null}
      </div>
      {values.length === 0 ? (
        <p className={builderStyles.muted}>Any: this list does not narrow the segment.</p>
      ) : (
        <InlineList aria-labelledby={headingId}>
          {values.map((value) => (
            <li key={value} className={resultStyles.chip}>
              {value}
            </li>
          ))}
        </InlineList>
      )}
    </section>
  );
}

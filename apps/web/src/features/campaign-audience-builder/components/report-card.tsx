import type { SegmentReport } from '@gem/contracts/campaign-audience-builder';
import { useId, type ReactNode } from 'react';

import { ButtonLink } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { ArrowRightIcon } from '@/components/ui/icons';

import { contactsOf } from '../format';
import { absoluteReportUrl } from '../report-links';
import resultStyles from './audience-results.module.css';
import builderStyles from './campaign-audience-builder.module.css';

/**
 * One report: its title, what it lists, how many it reaches, 'Copy URL' (the absolute address:
 * an embedded report's path resolved against GEM's origin; 'Copied!' for 2 s) and 'Open Report'
 * in a new tab without a way back to GEM; and what the page adds (Save to campaign).
 */
export function ReportCard({ report, action }: { report: SegmentReport; action?: ReactNode }) {
  const titleId = useId();
  const url = absoluteReportUrl(report.url);
  return (
    <article className={resultStyles.reportCard} aria-labelledby={titleId}>
      <div className={resultStyles.reportText}>
        <h5 id={titleId} className={resultStyles.reportTitle}>
          {report.title}
        </h5>
        <p className={builderStyles.muted}>{report.description}</p>
      </div>
      <p className={resultStyles.reach}>
        {report.reach === null ? 'Reach not counted' : contactsOf(report.reach)}
      </p>
      <div className={resultStyles.reportActions}>
        <CopyButton text={url} label="Copy URL" describedBy={titleId} />
        <ButtonLink
          to={url}
          target="_blank"
          rel="noopener noreferrer"
          variant="primary"
          aria-describedby={titleId}
        >
          Open Report
          <ArrowRightIcon />
          <span className="visually-hidden"> (opens in a new tab)</span>
        </ButtonLink>
        {action}
      </div>
    </article>
  );
}

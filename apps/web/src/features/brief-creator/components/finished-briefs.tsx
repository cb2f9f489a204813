import { briefDataOfSystemMessage, briefToastTexts, type FinishedBrief } from '@gem/contracts/brief-creator';

import { ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ArrowRightIcon } from '@/components/ui/icons';
import { Panel } from '@/components/ui/panel';
import { formatDateTime } from '@/lib/format-date';

import { useFinishedBriefs } from '../api/get-finished-briefs';
import { shortId, visibleMessageCount } from '../chat-entries';
import { useErrorToast } from '../use-error-toast';
import { finishedBriefLink } from './brief-chat';
import styles from './brief-creator.module.css';
import { RetryButton } from './brief-sessions';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Spec §2, tab 3: the finished briefs as a grid of cards, each linking to its details. */
export function FinishedBriefs() {
  const briefs = useFinishedBriefs();
  useErrorToast(briefs, briefToastTexts.finishedBriefs);

  if (briefs.isPending)
    return (
      <EmptyState className={styles.listState}>
        <p>Loading finished briefs…</p>
      </EmptyState>
    );
  const list = briefs.data?.briefs ?? [];
  if (list.length === 0) {
    return (
      <EmptyState className={styles.listState}>
        <p>No finished briefs found.</p>
        {briefs.isError ? <RetryButton onRetry={() => void briefs.refetch()} /> : null}
      </EmptyState>
    );
  }
  return (
    <ul className={styles.cardGrid} aria-label="Finished briefs">
      {list.map((brief) => (
        <FinishedBriefCard key={brief.id} brief={brief} />
      ))}
    </ul>
  );
}

function FinishedBriefCard({ brief }: { brief: FinishedBrief }) {
  const data = briefDataOfSystemMessage(brief.briefDataJson);
  const notSpecified = <span className={styles.notSpecified}>Not specified</span>;
  return (
    <li>
      <Panel as="article" className={styles.finishedCard} aria-label={brief.title}>
        <div className={styles.cardTop}>
          <span className={styles.shortId}>{shortId(brief.id)}</span>
          <span className={styles.cardMeta}>
            <time dateTime={brief.createdAt}>{formatDateTime(brief.createdAt)}</time>
            <span aria-hidden="true">·</span>
            <span>{plural(visibleMessageCount(brief.messages), 'message')}</span>
          </span>
        </div>
        <h3 className={styles.cardTitle}>{brief.title}</h3>
        <dl className={styles.cardFacts}>
          <div>
            <dt>Campaign type</dt>
            <dd>{data?.campaignType.length ? data.campaignType.join(', ') : notSpecified}</dd>
          </div>
          <div>
            <dt>Primary objective</dt>
            <dd className={styles.clamp}>{data?.primaryObjective.trim() || notSpecified}</dd>
          </div>
          <div>
            <dt>Channels</dt>
            <dd>{data?.channels.length ? data.channels.join(', ') : notSpecified}</dd>
          </div>
        </dl>
        <ButtonLink
          to={finishedBriefLink(brief.id)}
          variant="secondary"
          className={styles.smallButton}
          aria-label={`View Details of ${brief.title}`}
        >
          View Details
          <ArrowRightIcon />
        </ButtonLink>
      </Panel>
    </li>
  );
}

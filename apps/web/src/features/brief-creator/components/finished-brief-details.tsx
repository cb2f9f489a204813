import {
  briefDataOfSystemMessage,
  briefFieldLabels,
  briefFields,
  briefToastTexts,
  emptyBriefData,
  type BriefData,
  type BriefField,
} from '@gem/contracts/brief-creator';
import { useId } from 'react';
import { useNavigate } from 'react-router';

import { Button, ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Eyebrow } from '@/components/ui/eyebrow';
import { ArrowLeftIcon, EraseIcon, SparkIcon } from '@/components/ui/icons';
import { Panel } from '@/components/ui/panel';
import { Split } from '@/components/ui/split';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';

import { useFinishedBrief } from '../api/get-finished-brief';
import { entriesOfMessages, visibleMessageCount } from '../chat-entries';
import { useErrorToast } from '../use-error-toast';
import { useFinishedBriefActions } from '../use-finished-brief-actions';
import chatStyles from './brief-chat.module.css';
import shared from './brief-creator.module.css';
import styles from './brief-lists.module.css';
import { BriefStyle } from './brief-style';
import { ChatBubble } from './chat-bubble';
import { ExportButtons } from './export-buttons';

export const finishedBriefsListLink = '/tools/brief-creator?tab=finished';

/** The value as the details page shows it, or null for 'Not specified'. */
function shownValue(data: BriefData, field: BriefField): string | string[] | null {
  const value = data[field];
  if (value === null) return null;
  if (Array.isArray(value)) {
    const items = value.filter((item) => item.trim() !== '');
    return items.length > 0 ? items : null;
  }
  return value.trim() === '' ? null : value;
}

/** Spec §2 Brief details page: a finished brief, its every field and its conversation. */
export function FinishedBriefDetails({ briefId }: { briefId: string }) {
  const query = useFinishedBrief(briefId);
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  useErrorToast(
    { isError: query.isError && !notFound, errorUpdatedAt: query.errorUpdatedAt },
    briefToastTexts.finishedBrief,
  );
  const fieldsHeading = useId();
  const conversationHeading = useId();
  const actions = useFinishedBriefActions();
  const navigate = useNavigate();

  const back = (
    <ButtonLink to={finishedBriefsListLink} variant="secondary" className={shared.smallButton}>
      <ArrowLeftIcon />
      Back to finished briefs
    </ButtonLink>
  );

  if (query.isPending) {
    return (
      <div className={styles.details}>
        {back}
        <EmptyState className={styles.listState}>
          <p>Loading the brief…</p>
        </EmptyState>
      </div>
    );
  }
  if (!query.data) {
    return (
      <div className={styles.details}>
        {back}
        <h1 className={styles.detailsTitle}>
          {notFound ? 'Brief not found.' : 'The brief could not be loaded.'}
        </h1>
        {notFound ? (
          <p className={styles.detailsLead}>It may belong to someone else, or the link may be wrong.</p>
        ) : null}
      </div>
    );
  }

  const brief = query.data;
  const data = briefDataOfSystemMessage(brief.briefDataJson) ?? emptyBriefData();
  const entries = entriesOfMessages(brief.messages);

  return (
    <div className={styles.details}>
      {back}
      <header className={styles.detailsHeader}>
        <Eyebrow>Finished brief</Eyebrow>
        <h1 className={styles.detailsTitle}>{brief.title}</h1>
        <dl className={styles.detailsMeta}>
          <div>
            <dt>Created</dt>
            <dd>
              <time dateTime={brief.createdAt}>{formatDateTime(brief.createdAt)}</time>
            </dd>
          </div>
          <div>
            <dt>ID</dt>
            <dd className={styles.mono}>{brief.id}</dd>
          </div>
          <div>
            <dt>Messages</dt>
            <dd>{visibleMessageCount(brief.messages)}</dd>
          </div>
        </dl>
        <div className={styles.detailsActions}>
          <Button
            variant="brand"
            className={shared.smallButton}
            disabled={actions.pending === brief.id}
            onClick={() => void actions.toCampaign({ id: brief.id, title: brief.title })}
          >
            Create campaign
          </Button>
          <ExportButtons
            brief={{ title: brief.title, data, createdAt: brief.createdAt, id: brief.id }}
            disabled={false}
          />
          <Button
            variant="secondary"
            className={shared.smallButton}
            disabled={actions.pending === brief.id}
            onClick={() => void actions.startFrom({ id: brief.id, title: brief.title })}
          >
            <SparkIcon />
            Start from this brief
          </Button>
          <Button
            variant="secondary"
            className={shared.smallButton}
            disabled={actions.pending === brief.id}
            onClick={() =>
              void actions.remove(
                { id: brief.id, title: brief.title },
                () => void navigate(finishedBriefsListLink),
              )
            }
          >
            <EraseIcon />
            Delete
          </Button>
        </div>
      </header>

      <Split align="start">
        <Panel as="section" className={styles.detailsCard} aria-labelledby={fieldsHeading}>
          <h2 id={fieldsHeading} className={shared.panelTitle}>
            Brief
          </h2>
          <dl className={styles.briefFields}>
            {briefFields.map((field) => {
              const value = shownValue(data, field);
              return (
                <div key={field} className={styles.briefFieldRow}>
                  <dt>{briefFieldLabels[field]}</dt>
                  <dd>
                    {value === null ? (
                      <span className={shared.notSpecified}>Not specified</span>
                    ) : Array.isArray(value) ? (
                      <ul className={styles.valueList}>
                        {value.map((item, index) => (
                          <li key={index}>{item}</li>
                        ))}
                      </ul>
                    ) : (
                      <span className={styles.valueText}>{value}</span>
                    )}
                  </dd>
                </div>
              );
            })}
          </dl>
          <BriefStyle brief={data} checkOnOpen />
        </Panel>

        <Panel as="section" className={styles.detailsCard} aria-labelledby={conversationHeading}>
          <h2 id={conversationHeading} className={shared.panelTitle}>
            Conversation
          </h2>
          {entries.length === 0 ? (
            <p className={shared.notSpecified}>No messages.</p>
          ) : (
            <ol className={chatStyles.messages} aria-label="Conversation">
              {entries.map((entry) => (
                <ChatBubble key={entry.id} entry={entry} />
              ))}
            </ol>
          )}
        </Panel>
      </Split>
    </div>
  );
}

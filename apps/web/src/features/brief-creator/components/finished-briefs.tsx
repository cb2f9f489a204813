import {
  briefDataOfSystemMessage,
  briefToastTexts,
  campaignTypes,
  FINISHED_BRIEF_SEARCH_MAX,
  type CampaignType,
  type FinishedBrief,
} from '@gem/contracts/brief-creator';
import { useEffect, useEffectEvent, useId, useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button, ButtonLink } from '@/components/ui/button';
import { Card, CardList } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectInput, TextInput } from '@/components/ui/fields';
import { ArrowRightIcon, EraseIcon, SparkIcon } from '@/components/ui/icons';
import { formatDateTime } from '@/lib/format-date';

import { useFinishedBriefs } from '../api/get-finished-briefs';
import { shortId, visibleMessageCount } from '../chat-entries';
import { useErrorToast } from '../use-error-toast';
import { useFinishedBriefActions } from '../use-finished-brief-actions';
import { finishedBriefLink } from './brief-chat';
import shared from './brief-creator.module.css';
import styles from './brief-lists.module.css';
import { RetryButton } from './brief-sessions';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How long the search waits for the next keystroke before it asks the server. */
const SEARCH_DELAY_MS = 250;

const isCampaignType = (value: string | null): value is CampaignType =>
  (campaignTypes as readonly (string | null)[]).includes(value);

/**
 * Spec §2, tab 3: the finished briefs as a grid of cards, each linking to its details; searched
 * by name and filtered by campaign type (in the URL, `?q=` and `?type=`), each one deletable
 * (with Undo) and the start of a new chat (issue 27).
 */
export function FinishedBriefs() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const typeParam = params.get('type');
  const campaignType = isCampaignType(typeParam) ? typeParam : undefined;
  const [typed, setTyped] = useState(q);
  const briefs = useFinishedBriefs({ q, campaignType });
  const actions = useFinishedBriefActions();
  useErrorToast(briefs, briefToastTexts.finishedBriefs);
  const searchId = useId();
  const typeId = useId();

  function setFilter(name: 'q' | 'type', value: string) {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value.trim() === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }

  // Written with the URL as it is then (a type chosen meanwhile stays).
  const search = useEffectEvent((text: string) => {
    if (text !== q) setFilter('q', text);
  });

  // The search follows the typing after a pause, not on every keystroke.
  useEffect(() => {
    const timer = setTimeout(() => search(typed), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const filtered = q.trim() !== '' || campaignType !== undefined;
  const list = briefs.data?.briefs ?? [];

  const toolbar = (
    <div className={styles.listToolbar} role="search" aria-label="Search finished briefs">
      <div className={styles.toolbarField}>
        <label htmlFor={searchId} className={shared.fieldLabel}>
          Search by name
        </label>
        <TextInput
          id={searchId}
          type="search"
          density="compact"
          value={typed}
          maxLength={FINISHED_BRIEF_SEARCH_MAX}
          placeholder="Campaign name"
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      <div className={styles.toolbarField}>
        <label htmlFor={typeId} className={shared.fieldLabel}>
          Campaign type
        </label>
        <SelectInput
          id={typeId}
          density="compact"
          value={campaignType ?? ''}
          onChange={(event) => setFilter('type', event.target.value)}
        >
          <option value="">All types</option>
          {campaignTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectInput>
      </div>
    </div>
  );

  let body;
  if (briefs.isPending) {
    body = (
      <EmptyState className={styles.listState}>
        <p>Loading finished briefs…</p>
      </EmptyState>
    );
  } else if (list.length === 0) {
    body = (
      <EmptyState className={styles.listState}>
        {filtered && !briefs.isError ? (
          <>
            <p>No finished briefs match this search.</p>
            <Button
              variant="secondary"
              className={shared.smallButton}
              onClick={() => {
                setTyped('');
                setParams(
                  (previous) => {
                    const next = new URLSearchParams(previous);
                    next.delete('q');
                    next.delete('type');
                    return next;
                  },
                  { replace: true, preventScrollReset: true },
                );
              }}
            >
              Clear the search
            </Button>
          </>
        ) : (
          <p>No finished briefs found.</p>
        )}
        {briefs.isError ? <RetryButton onRetry={() => void briefs.refetch()} /> : null}
      </EmptyState>
    );
  } else {
    body = (
      <CardList label="Finished briefs" busy={briefs.isFetching}>
        {list.map((brief) => (
          <FinishedBriefCard
            key={brief.id}
            brief={brief}
            busy={actions.pending === brief.id}
            onDelete={() => void actions.remove({ id: brief.id, title: brief.title })}
            onStartFrom={() => void actions.startFrom({ id: brief.id, title: brief.title })}
            onCreateCampaign={() => void actions.toCampaign({ id: brief.id, title: brief.title })}
          />
        ))}
      </CardList>
    );
  }

  return (
    <div className={styles.finished}>
      {toolbar}
      {body}
    </div>
  );
}

function FinishedBriefCard({
  brief,
  busy,
  onDelete,
  onStartFrom,
  onCreateCampaign,
}: {
  brief: FinishedBrief;
  busy: boolean;
  onDelete: () => void;
  onStartFrom: () => void;
  onCreateCampaign: () => void;
}) {
  const data = briefDataOfSystemMessage(brief.briefDataJson);
  const notSpecified = <span className={shared.notSpecified}>Not specified</span>;
  return (
    <li>
      <Card as="article" aria-label={brief.title}>
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
        <div className={styles.cardActions}>
          <ButtonLink
            to={finishedBriefLink(brief.id)}
            variant="secondary"
            className={shared.smallButton}
            aria-label={`View Details of ${brief.title}`}
          >
            View Details
            <ArrowRightIcon />
          </ButtonLink>
          <Button
            variant="secondary"
            className={shared.smallButton}
            disabled={busy}
            aria-label={`Start from this brief: ${brief.title}`}
            onClick={onStartFrom}
          >
            <SparkIcon />
            Start from this brief
          </Button>
          <Button
            variant="secondary"
            className={shared.smallButton}
            disabled={busy}
            aria-label={`Create campaign from ${brief.title}`}
            onClick={onCreateCampaign}
          >
            Create campaign
          </Button>
          <button
            type="button"
            className={shared.iconButton}
            disabled={busy}
            aria-label={`Delete ${brief.title}`}
            title="Delete"
            onClick={onDelete}
          >
            <EraseIcon />
          </button>
        </div>
      </Card>
    </li>
  );
}

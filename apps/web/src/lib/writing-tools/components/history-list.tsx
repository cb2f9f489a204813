import type { GenerationRecord } from '@gem/contracts/writing-tools';
import { cutAtGrapheme } from '@gem/contracts/text-rules';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardList } from '@/components/ui/card';
import { ListPanel, ListState } from '@/components/ui/list-panel';
import { formatDateTime } from '@/lib/format-date';

import styles from './history-list.module.css';

export type HistoryEntry = {
  id: string;
  createdAt: string;
  /** What was asked, shortened: the task, description or content. */
  title: string;
  /** The start of the output, when there is one. */
  excerpt: string;
  outcome: 'succeeded' | 'failed' | 'cancelled';
};

/** Markdown as the words a reader sees: no #, *, _, `, > or list marks; links as their text. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^[\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, '$1$2')
    .replace(/`/g, '');
}

/** One line of text, at most `max` characters, for a list entry. */
export function shorten(text: string, max = 140): string {
  const flat = plainText(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${cutAtGrapheme(flat, max - 1).trimEnd()}…` : flat;
}

/** A history entry for a record, titled by the input a person recognises it by. */
export function historyEntry(record: GenerationRecord, title: string): HistoryEntry {
  return {
    id: record.id,
    createdAt: record.createdAt,
    title: shorten(title, 90) || 'Untitled',
    excerpt: shorten(record.output?.copy ?? record.output?.text ?? ''),
    outcome: record.outcome,
  };
}

export type HistoryListProps = {
  entries: readonly HistoryEntry[] | undefined;
  isError: boolean;
  onRetry: () => void;
  onSelect: (id: string) => void;
  /** The entry shown in the page right now. */
  selectedId?: string | null;
};

const outcomeBadge = {
  succeeded: null,
  failed: <Badge>Failed</Badge>,
  cancelled: <Badge>Stopped</Badge>,
} as const;

/** The user's last 20 outputs of a tool; choosing one brings back its inputs and output. */
export function HistoryList({ entries, isError, onRetry, onSelect, selectedId }: HistoryListProps) {
  return (
    <ListPanel
      title="Your recent outputs"
      description="Your last 20, newest first. Choose one to bring back its inputs and output."
    >
      {isError ? (
        <ListState>
          <p>Your recent outputs could not be loaded.</p>
          <Button variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        </ListState>
      ) : !entries ? (
        <ListState role="status">
          <p>Loading your recent outputs…</p>
        </ListState>
      ) : entries.length === 0 ? (
        <ListState>
          <p>Nothing yet. What you generate here is kept for you to reopen.</p>
        </ListState>
      ) : (
        <CardList ordered>
          {entries.map((entry) => (
            <li key={entry.id}>
              <Card
                as="button"
                size="compact"
                selected={entry.id === selectedId}
                aria-current={entry.id === selectedId ? 'true' : undefined}
                onClick={() => onSelect(entry.id)}
              >
                <span className={styles.meta}>
                  <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                  {outcomeBadge[entry.outcome]}
                </span>
                <span className={styles.entryTitle}>{entry.title}</span>
                {entry.excerpt ? <span className={styles.excerpt}>{entry.excerpt}</span> : null}
              </Card>
            </li>
          ))}
        </CardList>
      )}
    </ListPanel>
  );
}

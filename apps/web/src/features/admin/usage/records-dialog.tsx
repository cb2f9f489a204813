import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDateTime } from '@/lib/format-date';
import { formatInteger } from '@/lib/format-number';

import { useUsageRecords, type RecordsParams } from './api/usage';
import { toolLabel } from './usage-format';
import styles from './usage-section.module.css';

const tokens = (n: number | null) => (n === null ? '—' : formatInteger(n));

/** The generation records a figure is made of, newest first, 50 at a time. */
export function RecordsDialog({
  title,
  params,
  onClose,
}: {
  title: string;
  params: RecordsParams;
  onClose: () => void;
}) {
  const records = useUsageRecords(params);
  const items = records.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Dialog title="Generation records" description={title} onClose={onClose}>
      {records.isPending ? (
        <EmptyState role="status">Loading the records…</EmptyState>
      ) : records.isError ? (
        <EmptyState tone="problem" role="alert">
          The records could not be loaded.
        </EmptyState>
      ) : items.length === 0 ? (
        <EmptyState>No records.</EmptyState>
      ) : (
        <div className={styles.records}>
          <div className={styles.tableFrame} role="region" aria-label="Records" tabIndex={0}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Person</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Model</th>
                  <th scope="col" className={styles.number}>
                    In
                  </th>
                  <th scope="col" className={styles.number}>
                    Out
                  </th>
                  <th scope="col" className={styles.number}>
                    Latency
                  </th>
                  <th scope="col">Outcome</th>
                  <th scope="col">ID</th>
                </tr>
              </thead>
              <tbody>
                {items.map((g) => (
                  <tr key={g.id}>
                    <td className={styles.nowrap}>{formatDateTime(g.createdAt)}</td>
                    <td className={styles.who}>{g.user.email ?? g.user.name ?? g.user.userId}</td>
                    <td className={styles.nowrap}>{toolLabel(g.tool)}</td>
                    <td className={styles.nowrap}>{g.model ?? '—'}</td>
                    <td className={styles.number}>{tokens(g.promptTokens)}</td>
                    <td className={styles.number}>{tokens(g.completionTokens)}</td>
                    <td className={styles.number}>{formatInteger(g.latencyMs)} ms</td>
                    <td>
                      {g.outcome}
                      {g.errorCode ? ` (${g.errorCode})` : ''}
                    </td>
                    <td className={styles.id}>{g.id.slice(0, 8)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className={styles.muted} role="status">
            {formatInteger(items.length)} record{items.length === 1 ? '' : 's'} shown
            {records.hasNextPage ? '; there are more.' : '.'}
          </p>
          {records.hasNextPage ? (
            <Button
              variant="secondary"
              disabled={records.isFetchingNextPage}
              onClick={() => void records.fetchNextPage()}
            >
              {records.isFetchingNextPage ? 'Loading…' : 'Show more'}
            </Button>
          ) : null}
        </div>
      )}
    </Dialog>
  );
}

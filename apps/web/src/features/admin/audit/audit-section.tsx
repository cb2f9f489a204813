import {
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
  auditActionNames,
  auditKindLabels,
  auditKinds,
  type AuditEntry,
} from '@gem/contracts/admin-audit';
import { useDeferredValue, useId, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { SelectInput, TextInput } from '@/components/ui/fields';
import { Notice } from '@/components/ui/notice';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';

import { useAuditLog, useSetAuditRetention, type AuditFilters } from './api/audit';
import styles from './audit-section.module.css';
import { actionLabel, actorOf, describeDetails } from './describe-entry';

/** What went wrong, in the server's words: the field's message when it named one. */
function problemOf(error: unknown): string {
  if (error instanceof ApiError) return error.issues[0]?.message ?? error.message;
  return error instanceof Error ? error.message : 'Something went wrong. Try again.';
}

/**
 * The admin area's audit log (issue 30): sign-ins, access decisions that changed and every
 * administrator's action, newest first, searched and filtered on the server a page at a time,
 * and how long entries are kept.
 */
export function AuditSection() {
  const [filters, setFilters] = useState<AuditFilters>({ q: '', action: '', from: '', to: '' });
  // The search is asked as typing pauses, not at every key.
  const q = useDeferredValue(filters.q);
  const log = useAuditLog({ ...filters, q });
  const first = log.data?.pages[0];
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const set = (part: Partial<AuditFilters>) => setFilters((f) => ({ ...f, ...part }));
  const headingId = useId();
  const searchId = useId();
  const actionId = useId();
  const fromId = useId();
  const toId = useId();
  const filtered =
    filters.q.trim() !== '' || filters.action !== '' || filters.from !== '' || filters.to !== '';

  return (
    <div className={styles.section}>
      <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
        <div className={styles.panelHeader}>
          <h2 id={headingId} className={styles.title}>
            Entries
          </h2>
          <p className={styles.description}>
            Every sign-in GEM sees (never a password), every access decision that changed and every
            administrator’s action, newest first.
          </p>
        </div>
        {first?.signIns === 'external' ? (
          <Notice tone="neutral">
            People sign in with your organisation’s identity provider (Microsoft Entra ID), so GEM never sees
            a sign-in: they are in that provider’s own sign-in log. This log has the access decisions and
            administrators’ actions.
          </Notice>
        ) : null}
        <form className={styles.filters} role="search" onSubmit={(e: FormEvent) => e.preventDefault()}>
          <div className={`${styles.field} ${styles.search}`}>
            <label className={styles.label} htmlFor={searchId}>
              Search
            </label>
            <TextInput
              id={searchId}
              type="search"
              value={filters.q}
              maxLength={200}
              placeholder="E-mail, target or action"
              onChange={(e) => set({ q: e.target.value })}
            />
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={actionId}>
              Kind
            </label>
            <SelectInput
              id={actionId}
              value={filters.action}
              onChange={(e) => set({ action: e.target.value })}
            >
              <option value="">Everything</option>
              {auditKinds.map((kind) => (
                <optgroup key={kind} label={auditKindLabels[kind]}>
                  <option value={kind}>All: {auditKindLabels[kind].toLowerCase()}</option>
                  {auditActionNames
                    .filter((a) => a.startsWith(`${kind}.`))
                    .map((a) => (
                      <option key={a} value={a}>
                        {actionLabel(a)}
                      </option>
                    ))}
                </optgroup>
              ))}
            </SelectInput>
          </div>
          <div className={`${styles.field} ${styles.day}`}>
            <label className={styles.label} htmlFor={fromId}>
              From
            </label>
            <TextInput
              id={fromId}
              type="date"
              value={filters.from}
              onChange={(e) => set({ from: e.target.value })}
            />
          </div>
          <div className={`${styles.field} ${styles.day}`}>
            <label className={styles.label} htmlFor={toId}>
              To
            </label>
            <TextInput
              id={toId}
              type="date"
              value={filters.to}
              onChange={(e) => set({ to: e.target.value })}
            />
          </div>
          {filtered ? (
            <Button variant="secondary" onClick={() => setFilters({ q: '', action: '', from: '', to: '' })}>
              Clear
            </Button>
          ) : null}
        </form>

        {log.isError ? (
          <p className={styles.problem} role="alert">
            {problemOf(log.error)}
          </p>
        ) : log.isPending ? (
          <p className={styles.muted} role="status">
            Loading the audit log…
          </p>
        ) : entries.length === 0 ? (
          <p className={styles.muted} role="status">
            {filtered ? 'No entry matches.' : 'Nothing has been recorded yet.'}
          </p>
        ) : (
          <ol className={styles.entries} aria-label="Audit entries, newest first">
            {entries.map((entry) => (
              <EntryRow key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
        {log.hasNextPage ? (
          <Button
            variant="secondary"
            className={styles.more}
            disabled={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
          >
            {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        ) : null}
      </Panel>
      {first ? <RetentionPanel days={first.retentionDays} /> : null}
    </div>
  );
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  const details = describeDetails(entry);
  const failed = entry.action === 'sign-in.failed';
  return (
    <li className={styles.entry}>
      <div className={styles.when}>
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
        {entry.ip ? <span className={styles.muted}>from {entry.ip}</span> : null}
      </div>
      <div className={styles.what}>
        <span className={failed ? `${styles.action} ${styles.failed}` : styles.action}>
          {actionLabel(entry.action)}
        </span>
        <span>
          <span className={styles.muted}>by </span>
          {actorOf(entry)}
          {entry.target ? (
            <>
              <span className={styles.muted}> · about </span>
              {entry.target}
            </>
          ) : null}
        </span>
        {details ? <span className={styles.details}>{details}</span> : null}
      </div>
    </li>
  );
}

function RetentionPanel({ days }: { days: number }) {
  const headingId = useId();
  const inputId = useId();
  const problemId = useId();
  const [value, setValue] = useState(String(days));
  const save = useSetAuditRetention();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(Number(value));
  };
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h2 id={headingId} className={styles.title}>
          Retention
        </h2>
        <p className={styles.description}>
          Entries are kept {days} days. Once a day GEM removes older ones and records how many it removed.
        </p>
      </div>
      <form className={styles.filters} onSubmit={submit}>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={inputId}>
            Keep entries for (days, {AUDIT_RETENTION_MIN_DAYS}–{AUDIT_RETENTION_MAX_DAYS})
          </label>
          <TextInput
            id={inputId}
            inputMode="numeric"
            value={value}
            aria-invalid={save.isError || undefined}
            aria-describedby={save.isError ? problemId : undefined}
            onChange={(e) => {
              setValue(e.target.value);
              save.reset();
            }}
          />
        </div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </form>
      {save.isError ? (
        <p id={problemId} className={styles.problem} role="alert">
          {problemOf(save.error)}
        </p>
      ) : save.isSuccess ? (
        <p className={styles.done} role="status">
          Saved: entries are kept {save.data.retentionDays} days.
        </p>
      ) : null}
    </Panel>
  );
}

import type { AllowanceUse, AllowancesResponse } from '@gem/contracts/admin-allowances';
import { useId, useState, type FormEvent } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { TextInput } from '@/components/ui/fields';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format-date';
import { formatInteger } from '@/lib/format-number';

import { useAllowances, useSetAllowance, type AllowanceChange } from './api/allowances';
import styles from './allowances-section.module.css';
import { parseTokens } from './tokens-input';

/**
 * The admin area's allowances (issue 30): the default monthly token allowance, and everyone's
 * month so far against theirs, those near their limit first; each person's allowance can be set
 * on its own or put back to the default. The AI platform refuses a call once it is used up.
 */
export function AllowancesSection() {
  const allowances = useAllowances();
  const [editing, setEditing] = useState<AllowanceUse | null>(null);

  if (allowances.isPending) return <EmptyState role="status">Loading the allowances…</EmptyState>;
  if (allowances.isError) {
    return (
      <EmptyState tone="problem" role="alert">
        The allowances could not be loaded.{' '}
        <Button variant="secondary" onClick={() => void allowances.refetch()}>
          Try again
        </Button>
      </EmptyState>
    );
  }
  const list = allowances.data;
  return (
    <div className={styles.section}>
      <DefaultAllowance list={list} />
      <Month list={list} onEdit={setEditing} />
      {editing ? (
        <PersonAllowanceDialog
          person={editing}
          defaultMonthlyTokens={list.defaultMonthlyTokens}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}

const tokensText = (tokens: number | null) =>
  tokens === null ? 'No limit' : `${formatInteger(tokens)} ${tokens === 1 ? 'token' : 'tokens'}`;

/** The server's words for a refused change: the field's issue, else its message. */
function problemOf(error: unknown): string {
  if (error instanceof ApiError) {
    return error.issues.length > 0
      ? [...new Set(error.issues.map((i) => i.message))].join(' ')
      : error.message;
  }
  return 'The allowance could not be saved. Try again.';
}

/** A tokens field and its Save: empty is no limit (or, for a person, the default). */
function TokensForm({
  label,
  hint,
  initial,
  userId,
  submitLabel,
  onSaved,
}: {
  label: string;
  hint: string;
  initial: number | null;
  userId?: string;
  submitLabel: string;
  onSaved?: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(initial === null ? '' : String(initial));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSetAllowance();

  function submit(event: FormEvent) {
    event.preventDefault();
    const monthlyTokens = parseTokens(text);
    if (monthlyTokens === 'invalid') {
      setProblem('Give the allowance as a whole number of tokens, or leave it empty.');
      return;
    }
    setProblem(null);
    const change: AllowanceChange = userId === undefined ? { monthlyTokens } : { userId, monthlyTokens };
    save.mutate(change, {
      onSuccess: () => onSaved?.(),
      onError: (error) => setProblem(problemOf(error)),
    });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <div className={styles.field}>
        <label htmlFor={`${id}-tokens`} className={styles.label}>
          {label}
        </label>
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
        <TextInput
          id={`${id}-tokens`}
          inputMode="numeric"
          autoComplete="off"
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ''}`}
          aria-invalid={problem ? true : undefined}
          className={styles.input}
        />
        {problem ? (
          <p id={`${id}-problem`} className={styles.problem} role="alert">
            {problem}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : submitLabel}
      </Button>
    </form>
  );
}

function DefaultAllowance({ list }: { list: AllowancesResponse }) {
  const headingId = useId();
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h2 id={headingId} className={styles.title}>
          Default allowance
        </h2>
        <p className={styles.description}>
          Tokens (in and out) each person may use with the AI tools in a calendar month (UTC), unless they
          have an allowance of their own. Once it is used up, the AI tools refuse until it is raised or the
          month ends.
        </p>
      </div>
      <p className={styles.current}>
        <strong>{tokensText(list.defaultMonthlyTokens)}</strong> a month
        {list.defaultSetBy ? (
          <span className={styles.muted}>
            {' '}
            · set by {list.defaultSetBy}
            {list.defaultSetAt ? ` on ${formatDateTime(list.defaultSetAt)}` : ''}
          </span>
        ) : null}
      </p>
      <TokensForm
        key={String(list.defaultMonthlyTokens)}
        label="Default tokens a month"
        hint="Leave it empty for no limit."
        initial={list.defaultMonthlyTokens}
        submitLabel="Save default"
      />
    </Panel>
  );
}

function Month({ list, onEdit }: { list: AllowancesResponse; onEdit: (person: AllowanceUse) => void }) {
  const headingId = useId();
  const near = list.month.filter((m) => m.nearLimit).length;
  const resets = new Date(list.resetsAt);
  const resetsOn = formatDate(new Date(resets.getUTCFullYear(), resets.getUTCMonth(), resets.getUTCDate()));
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h2 id={headingId} className={styles.title}>
          This month
        </h2>
        <p className={styles.description}>
          Everyone’s tokens since {formatDate(new Date(`${list.monthStart}T00:00:00`))}, nearest their limit
          first. The count starts again on {resetsOn}.{' '}
          {near === 0
            ? 'Nobody is near their limit.'
            : `${formatInteger(near)} ${near === 1 ? 'person is' : 'people are'} at 80 % of their allowance or more.`}
        </p>
      </div>
      {list.month.length === 0 ? (
        <EmptyState spacing="tight">Nobody has signed in to GEM yet.</EmptyState>
      ) : (
        <ul className={styles.people} aria-labelledby={headingId}>
          {list.month.map((use) => (
            <PersonRow key={use.person.userId} use={use} onEdit={onEdit} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

const nameOf = (use: AllowanceUse) => use.person.name ?? use.person.email ?? 'Unknown person';

function PersonRow({ use, onEdit }: { use: AllowanceUse; onEdit: (person: AllowanceUse) => void }) {
  const share = use.share === null ? null : Math.min(1, use.share);
  const usedUp = use.share !== null && use.share >= 1;
  return (
    <li className={`${styles.person} ${use.nearLimit ? styles.near : ''}`}>
      <div className={styles.who}>
        <span className={styles.name}>{nameOf(use)}</span>
        {use.person.email && use.person.email !== use.person.name ? (
          <span className={styles.muted}>{use.person.email}</span>
        ) : null}
      </div>
      <div className={styles.use}>
        <span>
          <strong>{formatInteger(use.usedTokens)}</strong> of {tokensText(use.monthlyTokens).toLowerCase()}
          {use.overridden ? '' : use.monthlyTokens === null ? '' : ' (default)'}
        </span>
        {share !== null ? (
          <span className={styles.meter} aria-hidden="true">
            <span className={styles.meterFill} style={{ width: `${share * 100}%` }} />
          </span>
        ) : null}
      </div>
      <div className={styles.flags}>
        {usedUp ? (
          <Badge tone="brand" size="small">
            Used up
          </Badge>
        ) : use.nearLimit ? (
          <Badge tone="brand" size="small">
            Near limit · {Math.floor((use.share ?? 0) * 100)} %
          </Badge>
        ) : null}
        {use.overridden ? <Badge size="small">Own allowance</Badge> : null}
      </div>
      <Button variant="secondary" className={styles.edit} onClick={() => onEdit(use)}>
        Change<span className={styles.visuallyHidden}> the allowance of {nameOf(use)}</span>
      </Button>
    </li>
  );
}

function PersonAllowanceDialog({
  person,
  defaultMonthlyTokens,
  onClose,
}: {
  person: AllowanceUse;
  defaultMonthlyTokens: number | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      title={`Allowance of ${nameOf(person)}`}
      description={
        <>
          {formatInteger(person.usedTokens)} tokens used this month.{' '}
          {person.overridden ? 'They have an allowance of their own.' : 'They have the default.'}
        </>
      }
      onClose={onClose}
    >
      <TokensForm
        label="Tokens a month"
        hint={`Leave it empty for the default (${tokensText(defaultMonthlyTokens).toLowerCase()}).`}
        initial={person.overridden ? person.monthlyTokens : null}
        userId={person.person.userId}
        submitLabel="Save allowance"
        onSaved={onClose}
      />
    </Dialog>
  );
}

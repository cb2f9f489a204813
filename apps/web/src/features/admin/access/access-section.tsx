import type { AccessEntry, AccessRequest, AccessRuleName } from '@gem/contracts/admin-access';
import type { AdminPerson } from '@gem/contracts/admin';
import { useId, useRef, useState, type FormEvent } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { SelectInput, TextInput } from '@/components/ui/fields';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format-date';

import {
  useAccessList,
  useAccessRequests,
  useDecideAccessRequest,
  useGrantAccess,
  useRevokeAccess,
} from './api/access';
import styles from './access-section.module.css';

/** How each rule reads on the list. */
const ruleLabels: Record<AccessRuleName, string> = {
  admin: 'Administrator',
  list: 'Access list',
  domain: 'E-mail domain',
  role: 'Role',
  revoked: 'Revoked',
  none: 'No access',
};

const ruleFilters: { value: '' | AccessRuleName; label: string }[] = [
  { value: '', label: 'Everyone' },
  ...Object.entries(ruleLabels).map(([value, label]) => ({ value: value as AccessRuleName, label })),
];

const nameOf = (person: AdminPerson | null) => person?.name ?? person?.email ?? 'someone';
const byWhom = (person: AdminPerson | null) => (person ? nameOf(person) : 'the command line');

/** What went wrong, in the server's words: the field's message when it named one. */
function problemOf(error: unknown): string {
  if (error instanceof ApiError) return error.issues[0]?.message ?? error.message;
  return error instanceof Error ? error.message : 'Something went wrong. Try again.';
}

/**
 * The admin area's access (issue 30): requests waiting for a decision, granting by e-mail, and
 * the access list (everyone GEM knows, how they get in, who changed it, when and why, their last
 * sign-in), each with a reason the audit log keeps. The server decides and refuses on its own.
 */
export function AccessSection() {
  return (
    <div className={styles.section}>
      <RequestsPanel />
      <GrantPanel />
      <AccessListPanel />
    </div>
  );
}

function RequestsPanel() {
  const headingId = useId();
  const requests = useAccessRequests();
  const pending = requests.data?.pending ?? [];
  const decided = requests.data?.decided ?? [];
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h2 id={headingId} className={styles.title}>
          Access requests{' '}
          {pending.length > 0 ? (
            <Badge tone="brand" size="small">
              {pending.length} pending
            </Badge>
          ) : null}
        </h2>
        <p className={styles.description}>
          People who signed in without access ask from the Access Denied page. Approving puts them on the
          access list; they see the outcome at their next visit.
        </p>
      </div>
      {requests.isPending ? (
        <p className={styles.muted} role="status">
          Loading requests…
        </p>
      ) : requests.isError ? (
        <p className={styles.problem} role="alert">
          The requests could not be loaded. {problemOf(requests.error)}
        </p>
      ) : pending.length === 0 ? (
        <p className={styles.muted}>No one is waiting for access.</p>
      ) : (
        <ul className={styles.people} aria-label="Pending requests">
          {pending.map((request) => (
            <PendingRequest key={request.id} request={request} />
          ))}
        </ul>
      )}
      {decided.length > 0 ? (
        <details className={styles.history}>
          <summary>Decided lately ({decided.length})</summary>
          <ul className={styles.historyList}>
            {decided.map((request) => (
              <li key={request.id}>
                <strong>{nameOf(request.user)}</strong>: {request.status} by {byWhom(request.decidedBy)}
                {request.decidedAt ? ` on ${formatDateTime(request.decidedAt)}` : ''}
                {request.decisionReason ? ` (“${request.decisionReason}”)` : ''}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Panel>
  );
}

function PendingRequest({ request }: { request: AccessRequest }) {
  const id = useId();
  const [reason, setReason] = useState('');
  const decide = useDecideAccessRequest();
  const who = nameOf(request.user);
  const send = (decision: 'approve' | 'decline') =>
    decide.mutate({ requestId: request.id, decision, ...(reason.trim() ? { reason: reason.trim() } : {}) });
  return (
    <li className={styles.person} aria-label={`Request of ${who}`}>
      <div className={styles.who}>
        <span className={styles.name}>{who}</span>
        {request.user.email && request.user.email !== who ? (
          <span className={styles.muted}>{request.user.email}</span>
        ) : null}
        <span className={styles.muted}>Asked {formatDateTime(request.createdAt)}</span>
        {request.note ? <q className={styles.note}>{request.note}</q> : null}
      </div>
      <div className={styles.decision}>
        <label htmlFor={`${id}-reason`} className={styles.label}>
          Reason (optional)
        </label>
        <TextInput
          id={`${id}-reason`}
          density="compact"
          value={reason}
          maxLength={500}
          onChange={(event) => setReason(event.target.value)}
        />
        <div className={styles.buttons}>
          <Button
            variant="brand"
            disabled={decide.isPending}
            onClick={() => send('approve')}
            aria-label={`Approve ${who}`}
          >
            Approve
          </Button>
          <Button
            variant="secondary"
            disabled={decide.isPending}
            onClick={() => send('decline')}
            aria-label={`Decline ${who}`}
          >
            Decline
          </Button>
        </div>
        {decide.isError ? (
          <p className={styles.problem} role="alert">
            {problemOf(decide.error)}
          </p>
        ) : null}
      </div>
    </li>
  );
}

function GrantPanel() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState('');
  const grant = useGrantAccess();
  const [granted, setGranted] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setGranted(null);
    grant.mutate(
      { email: email.trim(), reason: reason.trim() },
      {
        onSuccess: ({ entry }) => {
          setGranted(entry.user.email ?? email.trim());
          setEmail('');
          setReason('');
        },
      },
    );
  }

  return (
    <Panel as="section" className={styles.panel} aria-labelledby={`${id}-title`}>
      <div className={styles.panelHeader}>
        <h2 id={`${id}-title`} className={styles.title}>
          Grant access
        </h2>
        <p className={styles.description}>
          By the e-mail someone signed in to GEM with (they must have signed in once). The reason goes to the
          audit log.
        </p>
      </div>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
        <div className={styles.field}>
          <label htmlFor={`${id}-email`} className={styles.label}>
            E-mail
          </label>
          <TextInput
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            value={email}
            required
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-reason`} className={styles.label}>
            Reason
          </label>
          <TextInput
            id={`${id}-reason`}
            value={reason}
            required
            maxLength={500}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
        <Button type="submit" variant="brand" disabled={grant.isPending}>
          {grant.isPending ? 'Granting…' : 'Grant access'}
        </Button>
      </form>
      {grant.isError ? (
        <p className={styles.problem} role="alert">
          {problemOf(grant.error)}
        </p>
      ) : null}
      {granted ? (
        <p className={styles.done} role="status">
          {granted} may use GEM now.
        </p>
      ) : null}
    </Panel>
  );
}

function AccessListPanel() {
  const id = useId();
  const list = useAccessList();
  const [query, setQuery] = useState('');
  const [rule, setRule] = useState<'' | AccessRuleName>('');
  const [revoking, setRevoking] = useState<AccessEntry | null>(null);
  const q = query.trim().toLowerCase();
  const entries = (list.data?.entries ?? []).filter(
    (e) =>
      (rule === '' || e.rule === rule) &&
      (!q || `${e.user.email ?? ''} ${e.user.name ?? ''}`.toLowerCase().includes(q)),
  );

  return (
    <Panel as="section" className={styles.panel} aria-labelledby={`${id}-title`}>
      <div className={styles.panelHeader}>
        <h2 id={`${id}-title`} className={styles.title}>
          Access list
        </h2>
        <p className={styles.description}>
          Everyone who has signed in to GEM, and how they get in: as an administrator (GEM_ADMIN_EMAILS,
          GEM_ADMIN_ROLES), on the access list, by their e-mail’s domain or a role. A revocation holds against
          a domain or a role, and takes effect within a minute everywhere.
        </p>
      </div>
      <div className={styles.filters}>
        <div className={styles.field}>
          <label htmlFor={`${id}-q`} className={styles.label}>
            Search
          </label>
          <TextInput
            id={`${id}-q`}
            type="search"
            placeholder="Name or e-mail"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-rule`} className={styles.label}>
            Gets in by
          </label>
          <SelectInput
            id={`${id}-rule`}
            value={rule}
            onChange={(event) => setRule(event.target.value as '' | AccessRuleName)}
          >
            {ruleFilters.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </SelectInput>
        </div>
      </div>
      {list.isPending ? (
        <p className={styles.muted} role="status">
          Loading the access list…
        </p>
      ) : list.isError ? (
        <p className={styles.problem} role="alert">
          The access list could not be loaded. {problemOf(list.error)}
        </p>
      ) : entries.length === 0 ? (
        <p className={styles.muted}>No one matches.</p>
      ) : (
        <>
          <p className={styles.muted} role="status">
            {entries.length === list.data.total
              ? `${entries.length} people`
              : `${entries.length} of ${list.data.total} people`}
          </p>
          <ul className={styles.people} aria-labelledby={`${id}-title`}>
            {entries.map((entry) => (
              <AccessRow key={entry.user.userId} entry={entry} onRevoke={() => setRevoking(entry)} />
            ))}
          </ul>
        </>
      )}
      {revoking ? <RevokeDialog entry={revoking} onClose={() => setRevoking(null)} /> : null}
    </Panel>
  );
}

function AccessRow({ entry, onRevoke }: { entry: AccessEntry; onRevoke: () => void }) {
  const who = nameOf(entry.user);
  const revocable = entry.hasAccess && entry.rule !== 'admin';
  return (
    <li className={styles.person} aria-label={who}>
      <div className={styles.who}>
        <span className={styles.name}>{who}</span>
        {entry.user.email && entry.user.email !== who ? (
          <span className={styles.muted}>{entry.user.email}</span>
        ) : null}
        <span className={styles.muted}>
          Last sign-in: {entry.lastSeenAt ? formatDateTime(entry.lastSeenAt) : 'never'}
        </span>
      </div>
      <div className={styles.how}>
        <span className={styles.badges}>
          <Badge
            tone={entry.hasAccess ? 'success' : entry.rule === 'revoked' ? 'brand' : 'neutral'}
            size="small"
          >
            {ruleLabels[entry.rule]}
          </Badge>
          {entry.pendingRequestId ? (
            <Badge tone="brand" size="small">
              Request pending
            </Badge>
          ) : null}
        </span>
        {entry.grant ? (
          <span className={styles.muted}>
            Granted by {byWhom(entry.grant.grantedBy)} on {formatDate(entry.grant.grantedAt)}
            {entry.grant.reason ? `: “${entry.grant.reason}”` : ''}
          </span>
        ) : null}
        {entry.revocation ? (
          <span className={styles.muted}>
            Revoked by {byWhom(entry.revocation.revokedBy)} on {formatDate(entry.revocation.revokedAt)}
            {entry.revocation.reason ? `: “${entry.revocation.reason}”` : ''}
          </span>
        ) : null}
      </div>
      {revocable ? (
        <Button
          variant="secondary"
          className={styles.revoke}
          onClick={onRevoke}
          aria-label={`Revoke the access of ${who}`}
        >
          Revoke
        </Button>
      ) : (
        <span />
      )}
    </li>
  );
}

function RevokeDialog({ entry, onClose }: { entry: AccessEntry; onClose: () => void }) {
  const id = useId();
  const reasonRef = useRef<HTMLInputElement>(null);
  const [reason, setReason] = useState('');
  const revoke = useRevokeAccess();
  const who = nameOf(entry.user);

  function submit(event: FormEvent) {
    event.preventDefault();
    revoke.mutate({ userId: entry.user.userId, reason: reason.trim() }, { onSuccess: onClose });
  }

  return (
    <Dialog
      title={`Revoke the access of ${who}?`}
      description="They are shut out within a minute on every instance, even if their e-mail’s domain or a role would let them in. Granting access again lifts it."
      onClose={onClose}
      initialFocus={reasonRef}
    >
      <form className={styles.dialogForm} onSubmit={submit} noValidate>
        <div className={styles.field}>
          <label htmlFor={`${id}-reason`} className={styles.label}>
            Reason
          </label>
          <TextInput
            ref={reasonRef}
            id={`${id}-reason`}
            value={reason}
            required
            maxLength={500}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
        {revoke.isError ? (
          <p className={styles.problem} role="alert">
            {problemOf(revoke.error)}
          </p>
        ) : null}
        <div className={styles.buttons}>
          <Button type="submit" variant="brand" disabled={revoke.isPending}>
            {revoke.isPending ? 'Revoking…' : 'Revoke access'}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

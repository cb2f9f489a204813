import type { OwnAccessRequest } from '@gem/contracts/admin-access';
import { useId, useState, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { Eyebrow } from '@/components/ui/eyebrow';
import { TextAreaField } from '@/components/ui/fields';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';
import { formatDateTime } from '@/lib/format-date';

import { useOwnAccessRequest, useRequestAccess } from '../api/access-request';
import styles from './access-denied.module.css';
import { FreeToolsList } from './free-tools-list';
import identity from './identity.module.css';

/** The longest note a request takes (contracts' accessRequestNoteSchema). */
export const ACCESS_REQUEST_NOTE_LIMIT = 1000;

/** Replaces the page for a signed-in user who may not use GEM (spec §2 "Access Denied"). */
export function AccessDenied({ contacts }: { contacts: readonly string[] }) {
  useDocumentTitle('Access denied');
  const { account } = useAuth();
  return (
    <Container>
      <div className={identity.page}>
        <section className={identity.panel} aria-labelledby="access-denied-title">
          <Eyebrow>Access Denied</Eyebrow>
          <h1 id="access-denied-title" className={identity.title}>
            You cannot use GEM yet
          </h1>
          <p className={identity.lead}>
            Access Denied: You are not permitted to use this application. For permissions please contact:{' '}
            {contacts.map((email, index) => (
              <span key={email}>
                <a href={`mailto:${email}`}>{email}</a>
                {index < contacts.length - 1 ? ', ' : ''}
              </span>
            ))}
          </p>
          {account ? <AccessRequest accountId={account.homeAccountId} /> : null}
        </section>
        <FreeToolsList />
      </div>
    </Container>
  );
}

/**
 * Asking GEM's administrators for access (issue 30): 'Request access' with an optional note,
 * then where the request stands: pending since when, or declined with the reason and a way to
 * ask again. An approved request lets the user in at their next visit (the access check).
 */
function AccessRequest({ accountId }: { accountId: string }) {
  const own = useOwnAccessRequest(accountId);
  const send = useRequestAccess(accountId);
  const [asking, setAsking] = useState(false);
  const request = own.data?.request ?? null;

  if (own.isPending) return null;
  if (asking || (request === null && send.isError)) {
    return <RequestForm send={send} onCancel={() => setAsking(false)} onSent={() => setAsking(false)} />;
  }
  if (request?.status === 'pending') return <Pending request={request} />;
  return (
    <div className={styles.request}>
      {request?.status === 'declined' ? <Declined request={request} /> : null}
      <div>
        <Button variant="brand" onClick={() => setAsking(true)}>
          {request?.status === 'declined' ? 'Ask again' : 'Request access'}
        </Button>
      </div>
      {own.isError ? (
        <p className={styles.problem} role="alert">
          Your earlier request could not be read. You can ask again.
        </p>
      ) : null}
    </div>
  );
}

function Pending({ request }: { request: OwnAccessRequest }) {
  return (
    <div className={styles.request} role="status">
      <p className={styles.state}>
        <strong>Access requested.</strong> Your request is pending since {formatDateTime(request.createdAt)}.
        An administrator will decide; come back later to see the outcome.
      </p>
      {request.note ? (
        <p className={styles.note}>
          Your note: <q>{request.note}</q>
        </p>
      ) : null}
    </div>
  );
}

function Declined({ request }: { request: OwnAccessRequest }) {
  return (
    <p className={`${styles.state} ${styles.declined}`} role="status">
      <strong>Your request was declined</strong>
      {request.decidedAt ? ` on ${formatDateTime(request.decidedAt)}` : ''}
      {request.decisionReason ? `: ${request.decisionReason}` : '.'}
    </p>
  );
}

function RequestForm({
  send,
  onCancel,
  onSent,
}: {
  send: ReturnType<typeof useRequestAccess>;
  onCancel: () => void;
  onSent: () => void;
}) {
  const id = useId();
  const [note, setNote] = useState('');
  const over = note.length > ACCESS_REQUEST_NOTE_LIMIT;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (over) return;
    send.mutate(note, { onSuccess: onSent });
  }

  const problem =
    send.error instanceof ApiError
      ? (send.error.issues[0]?.message ?? send.error.message)
      : send.error?.message;
  return (
    <form className={styles.request} onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`} className={styles.formTitle}>
        Request access
      </h2>
      <TextAreaField
        label="Note to the administrators (optional)"
        hint="Who you are and what you need GEM for."
        value={note}
        onValueChange={setNote}
        limit={ACCESS_REQUEST_NOTE_LIMIT}
        subject="The note"
        rows={3}
      />
      {problem ? (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      ) : null}
      <div className={styles.buttons}>
        <Button type="submit" variant="brand" disabled={send.isPending || over}>
          {send.isPending ? 'Sending…' : 'Send request'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

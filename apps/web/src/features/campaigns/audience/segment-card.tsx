import { MEMBER_FAILURES_LISTED, type MemberRun, type SavedSegment } from '@gem/contracts/campaign-audience';
import { reportTypeLabels } from '@gem/contracts/campaign-audience-builder';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format-date';
import { formatInteger } from '@/lib/format-number';

import { problemText } from '../problem-text';
import { useAddSegmentMembers } from './api/add-segment-members';
import { usePreviewSegmentMembers } from './api/preview-segment-members';
import { useRemoveCampaignSegment } from './api/remove-campaign-segment';
import { contactsOf, previewText } from './audience-counts';
import styles from './campaign-audience.module.css';

type Step = 'idle' | 'preview' | 'result';

/**
 * One saved segment: its name, report type and link, who saved it and when; for its owner and
 * editors, Remove and 'Add to CRM campaign': the dry run, then the confirmation, then what the
 * CRM did, every refused contact with its reason.
 */
export function SegmentCard({
  campaignId,
  segment,
  editable,
  hasCrmCampaign,
}: {
  campaignId: string;
  segment: SavedSegment;
  editable: boolean;
  hasCrmCampaign: boolean;
}) {
  const titleId = useId();
  const [step, setStep] = useState<Step>('idle');
  const preview = usePreviewSegmentMembers(campaignId, segment.id);
  const add = useAddSegmentMembers(campaignId, segment.id);
  const remove = useRemoveCampaignSegment(campaignId);

  function startPreview() {
    add.reset();
    setStep('preview');
    preview.mutate();
  }

  function confirm() {
    setStep('result');
    add.mutate();
  }

  function close() {
    setStep('idle');
    preview.reset();
    add.reset();
  }

  const busy = preview.isPending || add.isPending;

  return (
    <li className={styles.segment} aria-labelledby={titleId}>
      <div className={styles.segmentHeader}>
        <div className={styles.segmentText}>
          <h3 id={titleId} className={styles.segmentTitle}>
            {segment.label}
          </h3>
          <p className={styles.muted}>
            {reportTypeLabels[segment.report.type]} · CRM campaign{' '}
            <span className={styles.mono}>{segment.report.campaignId}</span> · saved by {segment.savedBy.name}
            , {formatDateTime(segment.savedAt)}
          </p>
        </div>
        <div className={styles.segmentActions}>
          {segment.reportUrl ? (
            <a
              className={styles.reportLink}
              href={segment.reportUrl}
              target="_blank"
              rel="noopener noreferrer"
              aria-describedby={titleId}
            >
              Open the report<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ) : null}
          {editable ? (
            <>
              <Button
                variant="primary"
                className={styles.smallButton}
                onClick={startPreview}
                disabled={busy || step === 'preview'}
                aria-describedby={titleId}
              >
                Add to CRM campaign
              </Button>
              <Button
                variant="secondary"
                className={styles.smallButton}
                onClick={() => remove.mutate(segment.id)}
                disabled={remove.isPending || busy}
                aria-label={`Remove ${segment.label}`}
              >
                Remove
              </Button>
            </>
          ) : null}
        </div>
      </div>
      {remove.isError ? (
        <p className={styles.error} role="alert">
          {problemText(remove.error, 'The segment could not be removed. Please try again.')}
        </p>
      ) : null}

      {step === 'preview' ? (
        <div className={styles.step} role="status" aria-live="polite">
          {preview.isPending ? (
            <p>Counting the segment&rsquo;s contacts in the CRM…</p>
          ) : preview.isError ? (
            <div role="alert" className={styles.stepBody}>
              <p className={styles.errorText}>
                {problemText(preview.error, 'The dry run failed. Please try again.')}
              </p>
              <div className={styles.stepActions}>
                {hasCrmCampaign ? (
                  <Button variant="secondary" className={styles.smallButton} onClick={() => preview.mutate()}>
                    Try again
                  </Button>
                ) : null}
                <Button variant="secondary" className={styles.smallButton} onClick={close}>
                  Close
                </Button>
              </div>
            </div>
          ) : preview.data ? (
            <div className={styles.stepBody}>
              <p className={styles.previewText}>Dry run: {previewText(preview.data)}.</p>
              {preview.data.newMembers > 0 ? (
                <p className={styles.muted}>Nothing is changed in the CRM until you confirm.</p>
              ) : (
                <p className={styles.muted}>Nothing to add: every contact is already a member.</p>
              )}
              <div className={styles.stepActions}>
                {preview.data.newMembers > 0 ? (
                  <Button variant="primary" className={styles.smallButton} onClick={confirm}>
                    Add {contactsOf(preview.data.newMembers)} to {preview.data.crmCampaign.name}
                  </Button>
                ) : null}
                <Button variant="secondary" className={styles.smallButton} onClick={close}>
                  {preview.data.newMembers > 0 ? 'Cancel' : 'Close'}
                </Button>
              </div>
            </div>
          ) : null}
        </div>
      ) : null}

      {step === 'result' ? (
        <div className={styles.step} role="status" aria-live="polite">
          {add.isPending ? (
            <p>Adding the contacts to the CRM campaign…</p>
          ) : add.isError ? (
            <div role="alert" className={styles.stepBody}>
              <p className={styles.errorText}>
                {problemText(add.error, 'The contacts could not be added. Please try again.')}
              </p>
              <div className={styles.stepActions}>
                <Button variant="secondary" className={styles.smallButton} onClick={close}>
                  Close
                </Button>
              </div>
            </div>
          ) : add.data ? (
            <RunResult run={add.data} onClose={close} />
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** What one addition did: added, already members, and the contacts the CRM refused, with why. */
function RunResult({ run, onClose }: { run: MemberRun; onClose: () => void }) {
  const tableId = useId();
  return (
    <div className={styles.stepBody}>
      <p className={styles.previewText}>
        Added {contactsOf(run.added)} · {formatInteger(run.alreadyMembers)} already{' '}
        {run.alreadyMembers === 1 ? 'a member' : 'members'}
        {run.failedCount > 0 ? ` · ${formatInteger(run.failedCount)} refused by the CRM` : ''}.
      </p>
      {run.failedCount > 0 ? (
        <>
          <p id={tableId} className={styles.muted}>
            {run.failedCount > run.failed.length
              ? `The first ${formatInteger(Math.min(run.failed.length, MEMBER_FAILURES_LISTED))} refused contacts`
              : 'The refused contacts'}{' '}
            and why. Running it again retries only the refused contacts; nobody is added twice.
          </p>
          <div className={styles.tableBox} tabIndex={0} role="region" aria-labelledby={tableId}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Contact</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {run.failed.map((failure) => (
                  <tr key={failure.contactId}>
                    <th scope="row">
                      {failure.name ?? failure.contactId}
                      {failure.name ? <span className={styles.cellNote}>{failure.contactId}</span> : null}
                    </th>
                    <td>{failure.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <div className={styles.stepActions}>
        <Button variant="secondary" className={styles.smallButton} onClick={onClose}>
          Done
        </Button>
      </div>
    </div>
  );
}

import type { MemberRun } from '@gem/contracts/campaign-audience';

import { formatDateTime } from '@/lib/format-date';
import { formatInteger } from '@/lib/format-number';

import styles from './campaign-audience.module.css';

/** Every addition to the CRM campaign so far, newest first: who, when, which segment, the counts. */
export function AudienceRuns({ runs }: { runs: readonly MemberRun[] }) {
  return (
    <div className={styles.runs}>
      <h3 id="campaign-audience-runs" className={styles.runsTitle}>
        Added to the CRM campaign
      </h3>
      <div className={styles.tableBox} tabIndex={0} role="region" aria-labelledby="campaign-audience-runs">
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Segment</th>
              <th scope="col" className={styles.number}>
                Contacts
              </th>
              <th scope="col" className={styles.number}>
                Added
              </th>
              <th scope="col" className={styles.number}>
                Already members
              </th>
              <th scope="col" className={styles.number}>
                Refused
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id}>
                <td>{formatDateTime(run.at)}</td>
                <td>{run.by.name}</td>
                <th scope="row">
                  {run.segmentLabel}
                  <span className={styles.cellNote}>{run.crmCampaignId}</span>
                </th>
                <td className={styles.number}>{formatInteger(run.total)}</td>
                <td className={styles.number}>{formatInteger(run.added)}</td>
                <td className={styles.number}>{formatInteger(run.alreadyMembers)}</td>
                <td className={styles.number}>{formatInteger(run.failedCount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

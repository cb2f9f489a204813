import { briefFieldLabels, briefFields, type BriefData } from '@gem/contracts/brief-creator';

import { shownValue } from '../brief-values';
import styles from './campaign-details.module.css';

/** Every field of the brief, read only, as a finished brief's details page shows them. */
export function BriefView({ brief }: { brief: BriefData }) {
  return (
    <dl className={styles.briefFields}>
      {briefFields.map((field) => {
        const value = shownValue(brief, field);
        return (
          <div key={field} className={styles.briefFieldRow}>
            <dt>{briefFieldLabels[field]}</dt>
            <dd>
              {value === null ? (
                <span className={styles.notSpecified}>Not specified</span>
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
  );
}

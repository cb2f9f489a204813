import type { AssetProvenance as Provenance } from '@gem/contracts/campaign-assets';

import { formatDateTime } from '@/lib/format-date';

import { provenanceParts } from './asset-labels';
import styles from './campaign-assets.module.css';

/**
 * What the current text was made from: the brief's version, the writing tool and its prompt's
 * version, the model and when. A text edited by hand says which generation it was edited from.
 */
export function AssetProvenance({
  provenance,
  generatedAt,
  edited,
}: {
  provenance: Provenance;
  /** When that generation was made (from the asset's versions, once they are loaded). */
  generatedAt: string | undefined;
  /** The current text is not the generation itself (edited or restored since). */
  edited: boolean;
}) {
  return (
    <div className={styles.provenanceRow}>
      <p className={styles.provenanceLead}>
        {edited ? 'Edited from a text generated with' : 'Generated with'}
      </p>
      <dl className={styles.provenance}>
        {provenanceParts(provenance).map(([label, value]) => (
          <div key={label}>
            <dt>{label}:</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {generatedAt ? (
          <div>
            <dt>Date:</dt>
            <dd>
              <time dateTime={generatedAt}>{formatDateTime(generatedAt)}</time>
            </dd>
          </div>
        ) : null}
        {provenance.instruction ? (
          <div>
            <dt>Instruction:</dt>
            <dd>{provenance.instruction}</dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}

import { UTM_VALUE_MAX, utmTagsOf, type CampaignAsset } from '@gem/contracts/campaign-assets';
import { campaignChannels } from '@gem/contracts/campaign-channels';
import { trackedLinks } from '@gem/contracts/campaign-pack';
import { useId, useState, type FormEvent } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TextInput } from '@/components/ui/fields';
import { ApiError } from '@/lib/api-client';

import { problemText } from '../problem-text';
import { useUpdateAsset } from './api/update-asset';
import styles from './campaign-assets.module.css';

type Field = 'source' | 'medium' | 'content';

const fieldLabels: Record<Field, string> = {
  source: 'UTM source',
  medium: 'UTM medium',
  content: 'UTM content (optional)',
};

/**
 * The asset's tracked links (issue 29): the UTM tags its links carry in the pack (the channel's
 * own unless edited here, with the campaign's slug as utm_campaign) and each link of its text as
 * the pack hands it over; a link tagged already is left as it is. Owners and editors change the
 * tags, or go back to the channel's own.
 */
export function AssetTrackedLinks({
  campaignId,
  campaignName,
  asset,
  editable,
}: {
  campaignId: string;
  campaignName: string;
  asset: CampaignAsset;
  editable: boolean;
}) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const tags = utmTagsOf(asset.utm, campaignName);
  const links = trackedLinks(asset.text, tags);
  const own = campaignChannels[asset.channel].utm;
  const label = campaignChannels[asset.channel].label;

  return (
    <section className={styles.trackedLinks} aria-labelledby={`${id}-title`}>
      <div className={styles.trackedHead}>
        <h4 id={`${id}-title`} className={styles.provenanceLead}>
          Tracked links
        </h4>
        <Badge tone={asset.utm.edited ? 'brand' : 'neutral'}>
          {asset.utm.edited ? 'UTM tags edited' : 'The channel’s UTM tags'}
        </Badge>
      </div>
      <dl className={styles.provenance}>
        <div>
          <dt>utm_source:</dt>
          <dd>{tags.source}</dd>
        </div>
        <div>
          <dt>utm_medium:</dt>
          <dd>{tags.medium}</dd>
        </div>
        <div>
          <dt>utm_campaign:</dt>
          <dd>{tags.campaign}</dd>
        </div>
        {tags.content ? (
          <div>
            <dt>utm_content:</dt>
            <dd>{tags.content}</dd>
          </div>
        ) : null}
      </dl>
      {links.length > 0 ? (
        <ul className={styles.linkList} aria-label={`Links of the ${label} as the pack hands them over`}>
          {links.map((link) => (
            <li key={link.written}>
              <span className={styles.linkText}>{link.tagged}</span>
              {link.tagged === link.written ? (
                <span className={styles.linkNote}> (tagged already: left as it is)</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.linkNote}>
          No links in this text yet: a link added to it carries these tags in the pack.
        </p>
      )}
      {editable && !editing ? (
        <div>
          <Button
            variant="secondary"
            className={styles.smallButton}
            aria-label={`Edit UTM tags of the ${label}`}
            onClick={() => setEditing(true)}
          >
            Edit UTM tags
          </Button>
        </div>
      ) : null}
      {editable && editing ? (
        <UtmForm campaignId={campaignId} asset={asset} own={own} onClose={() => setEditing(false)} />
      ) : null}
    </section>
  );
}

function UtmForm({
  campaignId,
  asset,
  own,
  onClose,
}: {
  campaignId: string;
  asset: CampaignAsset;
  own: { source: string; medium: string };
  onClose: () => void;
}) {
  const id = useId();
  const update = useUpdateAsset(campaignId, asset.channel);
  const [values, setValues] = useState<Record<Field, string>>({
    source: asset.utm.source,
    medium: asset.utm.medium,
    content: asset.utm.content ?? '',
  });

  const issueOf = (field: Field) =>
    update.error instanceof ApiError
      ? update.error.issues.find((issue) => issue.path === `body.utm.${field}`)?.message
      : undefined;
  const fieldless = update.isError && !(['source', 'medium', 'content'] as const).some((f) => issueOf(f));

  async function save(event: FormEvent) {
    event.preventDefault();
    const content = values.content.trim();
    try {
      await update.mutateAsync({
        utm: { source: values.source.trim(), medium: values.medium.trim(), content: content || null },
      });
      onClose();
    } catch {
      // Shown at its field; what was typed stays.
    }
  }

  async function backToOwn() {
    try {
      await update.mutateAsync({ utm: null });
      onClose();
    } catch {
      // Shown under the form.
    }
  }

  return (
    <form className={styles.utmForm} noValidate onSubmit={(event) => void save(event)}>
      <p id={`${id}-hint`} className={styles.linkNote}>
        Letters, digits and . _ + - only, no spaces. The channel’s own: utm_source={own.source}, utm_medium=
        {own.medium}.
      </p>
      <div className={styles.utmFields}>
        {(['source', 'medium', 'content'] as const).map((field) => {
          const issue = issueOf(field);
          return (
            <div key={field} className={styles.utmField}>
              <label className={styles.fieldLabel} htmlFor={`${id}-${field}`}>
                {fieldLabels[field]}
              </label>
              <TextInput
                id={`${id}-${field}`}
                density="compact"
                value={values[field]}
                maxLength={UTM_VALUE_MAX}
                spellCheck={false}
                autoCapitalize="off"
                aria-invalid={issue ? true : undefined}
                aria-describedby={[`${id}-hint`, issue ? `${id}-${field}-error` : null]
                  .filter(Boolean)
                  .join(' ')}
                onChange={(event) => {
                  setValues((was) => ({ ...was, [field]: event.target.value }));
                  if (update.isError) update.reset();
                }}
              />
              {issue ? (
                <p id={`${id}-${field}-error`} className={styles.fieldError} role="alert">
                  {issue}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      {fieldless ? (
        <p className={styles.fieldError} role="alert">
          {problemText(update.error, 'The UTM tags could not be saved. Please try again.')}
        </p>
      ) : null}
      <div className={styles.utmActions}>
        <Button type="submit" variant="secondary" className={styles.smallButton} disabled={update.isPending}>
          Save UTM tags
        </Button>
        {asset.utm.edited ? (
          <Button
            variant="secondary"
            className={styles.smallButton}
            disabled={update.isPending}
            onClick={() => void backToOwn()}
          >
            Use the channel’s own
          </Button>
        ) : null}
        <Button variant="secondary" className={styles.smallButton} onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

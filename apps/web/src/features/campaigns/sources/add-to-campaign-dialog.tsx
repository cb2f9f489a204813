import { CAMPAIGN_SEARCH_MAX, campaignStatusLabels, type CampaignSummary } from '@gem/contracts/campaigns';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ToastContentProps } from 'react-toastify/unstyled';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextInput } from '@/components/ui/fields';
import { toast } from '@/lib/toast';

import { campaignsQueryOptions } from '../api/get-campaigns';
import { campaignLink, campaignsLink } from '../campaign-paths';
import { problemText } from '../problem-text';
import { useAddCampaignSource } from './api/add-campaign-source';
import type { SourceItem } from './source-item';
import styles from './sources.module.css';

/** How long the search waits for the next keystroke before it asks the server. */
const SEARCH_DELAY_MS = 250;

/** Only a campaign's owner and editors may add to its sources. */
export const mayAddSources = (campaign: CampaignSummary) =>
  campaign.role === 'owner' || campaign.role === 'editor';

type Refusal = { campaign: string; message: string };

/**
 * 'Add to campaign…' (issue 29): the campaigns the user may change, searched by name; Add makes
 * the item one of the campaign's sources, and a toast leads to the campaign. A refusal (the
 * server's 400, 403, 404 or 409) stays in the dialog, in the server's words.
 */
export function AddToCampaignDialog({ source, onClose }: { source: SourceItem; onClose: () => void }) {
  const searchRef = useRef<HTMLInputElement>(null);
  const searchId = useId();
  const [typed, setTyped] = useState('');
  const [searched, setSearched] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const navigate = useNavigate();
  const campaigns = useQuery(campaignsQueryOptions({ q: searched }));
  const add = useAddCampaignSource();

  // The search follows the typing after a pause, not on every keystroke.
  useEffect(() => {
    const timer = setTimeout(() => setSearched(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  async function addTo(campaign: CampaignSummary) {
    setRefusal(null);
    try {
      await add.mutateAsync({ campaignId: campaign.id, request: source.request });
    } catch (error) {
      setRefusal({
        campaign: campaign.name,
        message: problemText(error, 'Something went wrong. Try again in a moment.'),
      });
      return;
    }
    onClose();
    const link = campaignLink(campaign.id);
    toast.success(({ closeToast }: Partial<ToastContentProps>) => (
      <span>
        Added to “{campaign.name}”.{' '}
        <a
          href={link}
          onClick={(event: MouseEvent<HTMLAnchorElement>) => {
            // A plain click stays in the app (the toasts sit outside the router); others open a tab.
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
              return;
            event.preventDefault();
            closeToast?.();
            void navigate(link);
          }}
        >
          Open the campaign
        </a>
      </span>
    ));
  }

  const all = campaigns.data?.campaigns;
  const editable = all?.filter(mayAddSources) ?? [];
  const noneAtAll = searched === '' && typed.trim() === '' && all !== undefined && editable.length === 0;

  // With no campaign to add to, the search box goes: the keyboard goes on to the way to make one.
  const wayOutRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (noneAtAll && (document.activeElement === document.body || document.activeElement === null)) {
      wayOutRef.current?.focus();
    }
  }, [noneAtAll]);

  let list;
  if (campaigns.isPending) {
    list = (
      <p className={styles.state} role="status">
        Loading your campaigns…
      </p>
    );
  } else if (campaigns.isError && !all) {
    list = (
      <div className={styles.state} role="alert">
        <p>Your campaigns could not be loaded. {problemText(campaigns.error, '')}</p>
        <Button variant="secondary" className={styles.smallButton} onClick={() => void campaigns.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (noneAtAll) {
    list = <NoCampaignYet readOnly={(all?.length ?? 0) > 0} linkRef={wayOutRef} />;
  } else if (editable.length === 0) {
    list = (
      <p className={styles.state} role="status">
        No campaign you can add to matches “{searched}”.
      </p>
    );
  } else {
    list = (
      <ul className={styles.campaigns} aria-label="Campaigns you can add to">
        {editable.map((campaign) => {
          const busy = add.isPending && add.variables?.campaignId === campaign.id;
          return (
            <li key={campaign.id} className={styles.campaign}>
              <div className={styles.campaignText}>
                <span className={styles.campaignName}>{campaign.name}</span>
                <span className={styles.campaignMeta}>
                  {campaignStatusLabels[campaign.status]} ·{' '}
                  {campaign.role === 'owner' ? 'Yours' : `${campaign.owner.name}’s, you edit it`}
                </span>
              </div>
              <Button
                variant="secondary"
                className={styles.smallButton}
                disabled={add.isPending}
                onClick={() => void addTo(campaign)}
              >
                {busy ? 'Adding…' : 'Add'} <span className="visually-hidden">to {campaign.name}</span>
              </Button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <Dialog
      title="Add to a campaign"
      description={
        <p>
          “{source.title}” becomes one of the campaign’s sources: GEM draws on it when it writes the
          campaign’s content.
        </p>
      }
      onClose={onClose}
      initialFocus={searchRef}
    >
      {noneAtAll ? null : (
        <div className={styles.search}>
          <label htmlFor={searchId} className={styles.searchLabel}>
            Search your campaigns
          </label>
          <TextInput
            ref={searchRef}
            id={searchId}
            type="search"
            value={typed}
            maxLength={CAMPAIGN_SEARCH_MAX}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
      )}
      {refusal ? (
        <p className={styles.refusal} role="alert">
          It could not be added to “{refusal.campaign}”: {refusal.message}
        </p>
      ) : null}
      {list}
    </Dialog>
  );
}

function NoCampaignYet({
  readOnly,
  linkRef,
}: {
  readOnly: boolean;
  linkRef: RefObject<HTMLAnchorElement | null>;
}) {
  return (
    <div className={styles.state} role="status">
      <p className={styles.stateTitle}>
        {readOnly ? 'No campaign you can add to' : 'You have no campaign yet'}
      </p>
      <p>
        {readOnly
          ? 'You can only read the campaigns shared with you: sources go into a campaign you own or edit. '
          : ''}
        A campaign is made from a finished brief: accept a brief in the brief creator, then choose Create
        campaign on it.
      </p>
      <Link ref={linkRef} to={campaignsLink} className={styles.stateLink}>
        Go to your campaigns
      </Link>
    </div>
  );
}

import type { SaveSegmentRequest } from '@gem/contracts/campaign-audience';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ToastContentProps } from 'react-toastify/unstyled';

import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { toast } from '@/lib/toast';

import { useCampaign } from '../api/get-campaign';
import { campaignLink } from '../campaign-paths';
import { problemText } from '../problem-text';
import { useSaveCampaignSegment } from './api/save-campaign-segment';
import styles from './campaign-audience.module.css';

/**
 * 'Save to campaign' on a report of the audience builder opened from a campaign: the report
 * becomes one of the campaign's segments, and a toast leads back to the campaign. A refusal stays
 * under the button in the server's words.
 */
export function SaveToCampaign({ campaignId, save }: { campaignId: string; save: SaveSegmentRequest }) {
  const campaign = useCampaign(campaignId);
  const mutation = useSaveCampaignSegment(campaignId);
  const navigate = useNavigate();
  const name = campaign.data?.name;

  async function saveIt() {
    try {
      await mutation.mutateAsync(save);
    } catch {
      return; // Shown under the button.
    }
    const link = campaignLink(campaignId);
    toast.success(({ closeToast }: Partial<ToastContentProps>) => (
      <span>
        Saved “{save.label}” to {name ? `“${name}”` : 'the campaign'}.{' '}
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

  return (
    <div className={styles.saveAction}>
      <Button
        variant="secondary"
        onClick={() => void saveIt()}
        disabled={mutation.isPending || mutation.isSuccess}
        aria-label={
          mutation.isSuccess ? `Saved to campaign: ${save.label}` : `Save to campaign: ${save.label}`
        }
      >
        {mutation.isSuccess ? 'Saved to campaign' : mutation.isPending ? 'Saving…' : 'Save to campaign'}
      </Button>
      {mutation.isError ? (
        <p className={styles.error} role="alert">
          {problemText(mutation.error, 'The segment could not be saved. Please try again.')}
        </p>
      ) : null}
    </div>
  );
}

/** Above the audience builder opened from a campaign: which one, and the way back to it. */
export function AudienceBuilderForCampaign({ campaignId }: { campaignId: string }) {
  const campaign = useCampaign(campaignId);
  const name = campaign.data?.name;
  return (
    <Notice>
      Building the audience of {name ? <strong>{name}</strong> : 'a campaign'}: &lsquo;Save to campaign&rsquo;
      on a report keeps it with the campaign. <Link to={campaignLink(campaignId)}>Back to the campaign</Link>
    </Notice>
  );
}

import { campaignTypes } from '@gem/contracts/brief-creator';
import { CAMPAIGN_SEARCH_MAX, campaignStatuses, campaignStatusLabels } from '@gem/contracts/campaigns';
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button, ButtonLink } from '@/components/ui/button';
import { CataloguePage } from '@/components/ui/catalogue-page';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectInput, TextInput } from '@/components/ui/fields';
import { ArrowRightIcon } from '@/components/ui/icons';

import { useCampaigns } from '../api/get-campaigns';
import {
  filtersOfParams,
  isFiltered,
  withFilter,
  withoutFilters,
  type FilterParam,
} from '../campaign-filters';
import { finishedBriefsLink } from '../campaign-paths';
import { problemText } from '../problem-text';
import { CampaignCard } from './campaign-card';
import styles from './campaigns.module.css';

/** How long the search waits for the next keystroke before it asks the server. */
const SEARCH_DELAY_MS = 250;

/**
 * `/campaigns` (issue 29): every campaign the user may see, newest change first, searched by name
 * and filtered by status, owner and campaign type, all in the URL.
 */
export function CampaignsPage() {
  const [params, setParams] = useSearchParams();
  const query = filtersOfParams(params);
  const campaigns = useCampaigns(query);
  const [typed, setTyped] = useState(query.q ?? '');
  // The URL as last written: filters chosen before the page renders again all stay (the router
  // hands an updater the URL of the last render, not of the last write). A render of an earlier
  // write, arriving after a later one, does not take it back; a URL from elsewhere (back,
  // forward, a link) is taken as it comes once no write of ours is on its way.
  const written = useRef(params);
  const awaited = useRef<string | null>(null);
  useEffect(() => {
    if (awaited.current === null || params.toString() === awaited.current) {
      awaited.current = null;
      written.current = params;
    }
  }, [params]);

  function writeParams(next: URLSearchParams) {
    written.current = next;
    // The URL shown already: no render of it is coming to wait for.
    awaited.current = next.toString() === params.toString() ? null : next.toString();
    setParams(next, { replace: true, preventScrollReset: true });
  }
  const setFilter = (name: FilterParam, value: string) =>
    writeParams(withFilter(written.current, name, value));

  // Written with the URL as it is then (a filter chosen meanwhile stays).
  const search = useEffectEvent((text: string) => {
    if (text.trim() !== (query.q ?? '')) setFilter('q', text);
  });
  // The search follows the typing after a pause, not on every keystroke.
  useEffect(() => {
    const timer = setTimeout(() => search(typed), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  function clearFilters() {
    setTyped('');
    writeParams(withoutFilters(written.current));
  }

  const list = campaigns.data?.campaigns ?? [];
  let listState = null;
  if (campaigns.isPending) {
    listState = (
      <EmptyState className={styles.state} role="status">
        <p>Loading campaigns…</p>
      </EmptyState>
    );
  } else if (campaigns.isError && list.length === 0) {
    listState = (
      <EmptyState className={styles.state} tone="problem" role="alert">
        <p>The campaigns could not be loaded. {problemText(campaigns.error, '')}</p>
        <Button variant="secondary" className={styles.smallButton} onClick={() => void campaigns.refetch()}>
          Try again
        </Button>
      </EmptyState>
    );
  } else if (list.length === 0 && isFiltered(query)) {
    listState = (
      <EmptyState className={styles.state} role="status">
        <p>No campaigns match these filters.</p>
        <Button variant="secondary" className={styles.smallButton} onClick={clearFilters}>
          Clear the filters
        </Button>
      </EmptyState>
    );
  } else if (list.length === 0) {
    listState = <NoCampaignsYet />;
  }

  return (
    <CataloguePage
      eyebrow="Your work"
      title="Campaigns"
      description="Each campaign starts from a finished brief and holds everything made from it."
      note={<span>To start one, open a finished brief in the brief creator and choose Create campaign.</span>}
      toolbar={
        <Filters
          typed={typed}
          onType={setTyped}
          status={query.status ?? ''}
          owner={query.owner ?? ''}
          campaignType={query.campaignType ?? ''}
          onFilter={setFilter}
        />
      }
      listLabel="Campaigns"
      listState={listState}
    >
      {list.map((campaign) => (
        <CampaignCard key={campaign.id} campaign={campaign} />
      ))}
    </CataloguePage>
  );
}

function NoCampaignsYet() {
  return (
    <EmptyState className={styles.state} role="status">
      <h2 className={styles.stateTitle}>No campaigns yet</h2>
      <p>
        A campaign is made from a finished brief. Accept a brief in the brief creator, then choose Create
        campaign on its card or its details page.
      </p>
      <ButtonLink to={finishedBriefsLink} variant="secondary" className={styles.smallButton}>
        Go to finished briefs
        <ArrowRightIcon />
      </ButtonLink>
    </EmptyState>
  );
}

type FiltersProps = {
  typed: string;
  onType: (text: string) => void;
  status: string;
  owner: string;
  campaignType: string;
  onFilter: (name: FilterParam, value: string) => void;
};

/** The search box and the three filters above the list. */
function Filters({ typed, onType, status, owner, campaignType, onFilter }: FiltersProps) {
  const id = useId();
  return (
    <div className={styles.toolbar} role="search" aria-label="Search campaigns">
      <div className={`${styles.toolbarField} ${styles.searchField}`}>
        <label htmlFor={`${id}-q`} className={styles.fieldLabel}>
          Search by name
        </label>
        <TextInput
          id={`${id}-q`}
          type="search"
          density="compact"
          value={typed}
          maxLength={CAMPAIGN_SEARCH_MAX}
          placeholder="Campaign name"
          onChange={(event) => onType(event.target.value)}
        />
      </div>
      <div className={styles.toolbarField}>
        <label htmlFor={`${id}-status`} className={styles.fieldLabel}>
          Status
        </label>
        <SelectInput
          id={`${id}-status`}
          density="compact"
          value={status}
          onChange={(event) => onFilter('status', event.target.value)}
        >
          <option value="">All statuses</option>
          {campaignStatuses.map((value) => (
            <option key={value} value={value}>
              {campaignStatusLabels[value]}
            </option>
          ))}
        </SelectInput>
      </div>
      <div className={styles.toolbarField}>
        <label htmlFor={`${id}-owner`} className={styles.fieldLabel}>
          Owner
        </label>
        <SelectInput
          id={`${id}-owner`}
          density="compact"
          value={owner}
          onChange={(event) => onFilter('owner', event.target.value)}
        >
          <option value="">Anyone</option>
          <option value="me">Me</option>
          <option value="others">Others</option>
        </SelectInput>
      </div>
      <div className={styles.toolbarField}>
        <label htmlFor={`${id}-type`} className={styles.fieldLabel}>
          Campaign type
        </label>
        <SelectInput
          id={`${id}-type`}
          density="compact"
          value={campaignType}
          onChange={(event) => onFilter('type', event.target.value)}
        >
          <option value="">All types</option>
          {campaignTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectInput>
      </div>
    </div>
  );
}

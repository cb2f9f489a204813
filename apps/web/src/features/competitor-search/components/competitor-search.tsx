import type { CompetitorSearchItem } from '@gem/contracts/competitor-search';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/api-client';

import { useCompetitors } from '../api/get-competitors';
import { useCompetitorSearch, type CompetitorSearchParams } from '../api/search-competitor-content';
import { competitorColours } from '../chart-data';
import { countOf, resultsOf, shownOf } from '../format';
import {
  dateRestrictOf,
  readSearchParams,
  windowDays,
  writeSearchParams,
  type SearchState,
} from '../search-params';
import styles from './competitor-search.module.css';
import { IndexEmpty, NoResults, SearchFailed, SearchIntro } from './empty-states';
import { EveryMatchChart } from './every-match-chart';
import { IndexFreshness, isIndexEmpty } from './index-freshness';
import { ResultCard } from './result-card';
import { SearchForm } from './search-form';
import { WeeklyChart } from './weekly-chart';

const requestOf = (state: SearchState): CompetitorSearchParams | null =>
  state.query
    ? {
        query: state.query,
        siteSearch: state.site || null,
        dateRestrict: dateRestrictOf(state.window),
        sort: state.sort,
      }
    : null;

/**
 * Spec §2 competitor search. The search lives in the address (`?q=…&site=…&window=d90`), so it
 * can be shared, survives a reload, and Back returns to the search before; each search is its
 * own query, so a new one starts from an empty list.
 */
export function CompetitorSearch({
  resultActions,
}: {
  /** What can be done with each result, at its foot ('Use in…', which the page brings). */
  resultActions?: (item: CompetitorSearchItem) => ReactNode;
} = {}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = readSearchParams(searchParams);
  const queryRef = useRef<HTMLInputElement>(null);
  const competitors = useCompetitors();
  const request = requestOf(state);
  const search = useCompetitorSearch(request);
  // What the chart of every match counts: the sort does not change it.
  const counted = request && {
    query: request.query,
    siteSearch: request.siteSearch,
    dateRestrict: request.dateRestrict,
  };

  const list = useMemo(() => competitors.data?.competitors ?? [], [competitors.data]);
  const colourOf = useMemo(() => competitorColours(list), [list]);
  const nameOf = useMemo(() => new Map(list.map((c) => [c.key, c.name])), [list]);
  const indexEmpty = isIndexEmpty(competitors.data);
  // A search the user just asked for (the form, an example, a way out of no results): its
  // answer is brought into view, since the form alone fills most of a laptop's screen.
  const resultsRef = useRef<HTMLElement>(null);
  const reveal = useRef(false);
  const go = (next: SearchState) => {
    reveal.current = true;
    setSearchParams(writeSearchParams(next));
  };
  const answered = !state.query || !(search.isPending && !search.isError);
  useEffect(() => {
    const area = resultsRef.current;
    if (!reveal.current || !answered || !area) return;
    reveal.current = false;
    const top = area.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.4) {
      const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)')?.matches;
      area.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
    }
    // The example or button clicked is gone: keep the keyboard where the answer is.
    if (document.activeElement === document.body) area.focus({ preventScroll: true });
  });
  const chosen = list.find((c) => c.siteSearch === state.site);

  const pages = search.data?.pages ?? [];
  const first = pages[0];
  const items = pages.flatMap((page) => page.items);

  let body;
  if (!state.query) {
    body =
      competitors.data && indexEmpty ? (
        <IndexEmpty data={competitors.data} />
      ) : (
        <SearchIntro names={list.map((c) => c.name)} onExample={(query) => go({ ...state, query })} />
      );
  } else if (search.isPending && !search.isError) {
    body = (
      <p className={styles.searching} role="status">
        Searching…
      </p>
    );
  } else if (!first) {
    const error = search.error;
    body = (
      <SearchFailed
        message={error?.message ?? 'The search did not answer.'}
        requestId={error instanceof ApiError ? error.requestId : undefined}
        retrying={search.isFetching}
        onRetry={() => void search.refetch()}
      />
    );
  } else if (items.length === 0) {
    body =
      competitors.data && indexEmpty ? (
        <IndexEmpty data={competitors.data} />
      ) : (
        <NoResults
          search={state}
          competitorName={state.site ? (chosen?.name ?? state.site) : null}
          canWiden={windowDays(state.window) < 365}
          onWiden={() => go({ ...state, window: { unit: 'd', amount: 365 } })}
          onAllCompetitors={() => go({ ...state, site: '' })}
          onOtherWords={() => {
            queryRef.current?.focus();
            queryRef.current?.select();
          }}
        />
      );
  } else {
    const info = first.searchInformation;
    body = (
      <>
        <p className={styles.summary} role="status">
          {resultsOf(info, competitors.data?.provider)} ({info.formattedSearchTime} seconds)
        </p>
        {first.weeklyCounts && first.weeklyCounts.length > 0 ? (
          <Panel className={styles.chartPanel}>
            <WeeklyChart counts={first.weeklyCounts} competitors={list} window={state.window} />
          </Panel>
        ) : info.totalCapped && counted ? (
          <EveryMatchChart
            key={JSON.stringify(counted)}
            search={counted}
            cap={info.totalResults}
            competitors={list}
            window={state.window}
          />
        ) : null}
        <ol className={styles.results} aria-label={`Results for ${state.query}`}>
          {items.map((item, index) => (
            <li key={`${item.link}-${index}`}>
              <ResultCard
                item={item}
                firmName={item.competitorKey ? (nameOf.get(item.competitorKey) ?? item.competitorKey) : null}
                firmColour={item.competitorKey ? colourOf(item.competitorKey) : undefined}
                resultActions={resultActions}
              />
            </li>
          ))}
        </ol>
        <div className={styles.more}>
          {search.isFetchNextPageError ? (
            <p role="alert" className={styles.moreText}>
              More results could not be loaded: {search.error?.message}
            </p>
          ) : null}
          {search.hasNextPage ? (
            <div className={styles.moreRow}>
              <Button
                variant="secondary"
                onClick={() => void search.fetchNextPage()}
                disabled={search.isFetchingNextPage}
              >
                {search.isFetchingNextPage
                  ? 'Loading…'
                  : search.isFetchNextPageError
                    ? 'Try again'
                    : 'Load More Results'}
              </Button>
              <p className={styles.moreText} role="status">
                {shownOf(items.length, info, competitors.data?.provider)}
              </p>
            </div>
          ) : (
            <p className={styles.moreText}>
              {countOf(items.length, 'result', 'results')} shown: that is all of them.
            </p>
          )}
        </div>
      </>
    );
  }

  return (
    <div className={styles.layout}>
      <Panel className={styles.formPanel}>
        <SearchForm value={state} competitors={list} onSearch={go} queryRef={queryRef} />
        {competitors.data ? <IndexFreshness data={competitors.data} /> : null}
        {competitors.isError ? (
          <p className={styles.freshness} role="status">
            The list of competitors could not be loaded; searching all of them still works.
          </p>
        ) : null}
      </Panel>
      <section ref={resultsRef} className={styles.resultsArea} aria-label="Search results" tabIndex={-1}>
        {body}
      </section>
    </div>
  );
}

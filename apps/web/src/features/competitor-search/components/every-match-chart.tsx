import type { CompetitorStatus } from '@gem/contracts/competitor-search';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Panel } from '@/components/ui/panel';
import { formatInteger } from '@/lib/format-number';

import { useWeeklyCounts, weeklyCountsQueryOptions, type WeeklyCountsParams } from '../api/get-weekly-counts';
import { countOf } from '../format';
import type { SearchWindow } from '../search-params';
import styles from './competitor-search.module.css';
import { WeeklyChart } from './weekly-chart';

type EveryMatchChartProps = {
  search: WeeklyCountsParams;
  /** Where the search's count stopped ('1,000+'). */
  cap: number;
  competitors: readonly CompetitorStatus[];
  window: SearchWindow;
};

/**
 * The chart of a search whose count stopped at its cap: the results come without it, and every
 * match is counted when asked (it checks every page of the window, so it is not done for every
 * search). Keyed by the search where it is used, so a new search starts unasked unless its
 * counts are still at hand.
 */
export function EveryMatchChart({ search, cap, competitors, window }: EveryMatchChartProps) {
  // Asked already when the counts are at hand (the same search sorted another way, or Back).
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState(
    () => queryClient.getQueryData(weeklyCountsQueryOptions(search).queryKey) !== undefined,
  );
  const counts = useWeeklyCounts(asked ? search : null);

  if (!asked) {
    return (
      <div className={styles.chartNote}>
        <p>
          More than {formatInteger(cap)} pages match: too many to chart with the results. Count them all to
          see who published them, week by week, or narrow the window or choose one competitor.
        </p>
        <Button variant="secondary" onClick={() => setAsked(true)}>
          Chart every match
        </Button>
      </div>
    );
  }
  if (counts.isPending) {
    return (
      <p className={styles.chartNote} role="status">
        Counting every match…
      </p>
    );
  }
  if (counts.isError) {
    return (
      <div className={styles.chartNote} role="alert">
        <p>The matches could not be counted: {counts.error.message}</p>
        <Button variant="secondary" onClick={() => void counts.refetch()} disabled={counts.isFetching}>
          {counts.isFetching ? 'Counting…' : 'Try again'}
        </Button>
      </div>
    );
  }
  return (
    <Panel className={styles.chartPanel}>
      <WeeklyChart counts={counts.data.weeklyCounts} competitors={competitors} window={window} />
      <p className={styles.chartTotal}>
        {countOf(counts.data.total, 'page matches', 'pages match')}, all counted.
      </p>
    </Panel>
  );
}

import type { UsageStyleResponse } from '@gem/contracts/admin-usage';
import { styleRuleIds, styleRuleLabels } from '@gem/contracts/brand-voice';
import { useId } from 'react';

import { EmptyState } from '@/components/ui/empty-state';
import { Panel } from '@/components/ui/panel';
import { StackedBarChart } from '@/components/ui/stacked-bar-chart';
import { formatInteger } from '@/lib/format-number';

import { useUsageStyle, type UsageParams } from './api/usage';
import { colourOf, periodsOf } from './usage-charts';
import { longDay, shortDay, toolLabel } from './usage-format';
import styles from './usage-section.module.css';

/**
 * The usage page's brand voice part (issue 31): what the style check found in each period's
 * generations, stacked by tool, and per tool the findings of each rule and the average score.
 * Counted per tool, not per person: a person chosen above does not narrow it, and it says so.
 */
export function UsageStyle({ params, enabled }: { params: UsageParams; enabled: boolean }) {
  const headingId = useId();
  const style = useUsageStyle(params, enabled);
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div>
        <h2 id={headingId} className={styles.title}>
          Brand voice findings
        </h2>
        <p className={styles.muted}>
          What the style check found in each generation’s text, by tool.
          {params.userId
            ? ' Counted per tool, for everyone: the person chosen above does not narrow it.'
            : ''}
        </p>
      </div>
      {style.isError ? (
        <EmptyState tone="problem" role="alert">
          The brand voice findings could not be loaded.
        </EmptyState>
      ) : !style.data ? (
        <EmptyState role="status">Loading the findings…</EmptyState>
      ) : style.data.totals.checked === 0 ? (
        <EmptyState>No checked generations in this range.</EmptyState>
      ) : (
        <StyleFigures data={style.data} />
      )}
    </Panel>
  );
}

function StyleFigures({ data }: { data: UsageStyleResponse }) {
  const week = data.by === 'week';
  const tools = data.tools.map((t) => t.tool).sort();
  const periods = periodsOf(data);
  const byPeriod = new Map<string, Record<string, number>>();
  for (const s of data.series) byPeriod.set(s.period, { ...byPeriod.get(s.period), [s.tool]: s.findings });
  const { totals } = data;
  return (
    <>
      <p className={styles.totalNote}>
        {formatInteger(totals.checked)} {totals.checked === 1 ? 'generation' : 'generations'} checked ·{' '}
        {formatInteger(totals.findings)} {totals.findings === 1 ? 'finding' : 'findings'} · average score{' '}
        {totals.scoreAverage ?? '–'} of 100
      </p>
      {totals.findings === 0 ? (
        <p className={styles.muted}>Nothing found: every checked text kept to the brand voice.</p>
      ) : (
        <div className={styles.chartWide}>
          <StackedBarChart
            caption={`Findings per ${week ? 'week' : 'day'}, by tool`}
            description={`${longDay(data.from)} to ${longDay(data.to)} (UTC).`}
            categoryHeader={week ? 'Week from' : 'Day'}
            categories={periods.map((p) => ({
              key: p,
              label: shortDay(p),
              fullLabel: week ? `Week from ${longDay(p)}` : longDay(p),
              values: Object.fromEntries(tools.map((t) => [t, byPeriod.get(p)?.[t] ?? 0])),
            }))}
            series={tools.map((t, i) => ({ key: t, name: toolLabel(t), colour: colourOf(i) }))}
          />
        </div>
      )}
      <div className={styles.tableFrame} role="region" aria-label="Findings by tool and rule" tabIndex={0}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col" className={styles.number}>
                Checked
              </th>
              <th scope="col" className={styles.number}>
                Average score
              </th>
              {styleRuleIds.map((rule) => (
                <th key={rule} scope="col" className={styles.number}>
                  {styleRuleLabels[rule]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.tools.map((t) => (
              <tr key={t.tool}>
                <th scope="row">{toolLabel(t.tool)}</th>
                <td className={styles.number}>{formatInteger(t.checked)}</td>
                <td className={styles.number}>{t.scoreAverage ?? '–'}</td>
                {styleRuleIds.map((rule) => (
                  <td key={rule} className={styles.number}>
                    {formatInteger(t.counts[rule])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

import type { UsageStyleResponse } from '@gem/contracts/admin-usage';
import { styleRuleIds, styleRuleLabels } from '@gem/contracts/brand-voice';
import { useId } from 'react';

import { EmptyState } from '@/components/ui/empty-state';
import { Panel } from '@/components/ui/panel';
import { formatInteger } from '@/lib/format-number';

import { useUsageStyle, type UsageParams } from './api/usage';
import { ToolsOverTime } from './usage-charts';
import { toolLabel } from './usage-format';
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
          <ToolsOverTime
            data={data}
            caption="Findings"
            series={data.series.map((s) => ({ period: s.period, tool: s.tool, value: s.findings }))}
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

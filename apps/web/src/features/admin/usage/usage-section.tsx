import type { UsagePeriod, UsageResponse, UsageRow } from '@gem/contracts/admin-usage';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { saveFile } from '@/components/ui/download-button';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectInput, TextInput } from '@/components/ui/fields';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/api-client';
import { formatInteger } from '@/lib/format-number';

import { downloadUsageCsv, useUsage, type RecordsParams, type UsageParams } from './api/usage';
import { PricesPanel } from './prices-panel';
import { RecordsDialog } from './records-dialog';
import { readUsageSearch, writeUsageSearch, type UsageSearch } from './search-params';
import { UsageCharts } from './usage-charts';
import { UsageStyle } from './usage-style';
import {
  formatCost,
  formatLatency,
  presetRange,
  rangePresets,
  rangeProblem,
  toolLabel,
  type RangePreset,
} from './usage-format';
import styles from './usage-section.module.css';

/**
 * The admin area's usage (issue 30): generations, tokens, estimated cost, failures and latency
 * per person, tool and day or week over a chosen range, read from the rollups the server keeps
 * as each generation is recorded. Every figure of the table opens the records it is made of; the
 * table downloads as CSV; the models' prices are set below.
 */
export function UsageSection() {
  // The filters live in the address (search-params.ts): a reload or a shared link shows the same.
  const [searchParams, setSearchParams] = useSearchParams();
  const search = readUsageSearch(searchParams);
  const { preset, range, by, userId, tool } = search;
  const change = (next: Partial<UsageSearch>) =>
    setSearchParams(writeUsageSearch({ ...search, ...next }), { replace: true });
  const [records, setRecords] = useState<{ title: string; params: RecordsParams } | null>(null);

  const problem = rangeProblem(range.from, range.to);
  const params: UsageParams = {
    ...range,
    by,
    ...(userId ? { userId } : {}),
    ...(tool ? { tool } : {}),
  };
  const usage = useUsage(params, problem === null);

  return (
    <div className={styles.section}>
      <Filters
        preset={preset}
        range={range}
        by={by}
        userId={userId}
        tool={tool}
        data={usage.data}
        problem={problem}
        onPreset={(next) => {
          const chosen = rangePresets.find((p) => p.id === next);
          // Chosen days start from the range shown, for the person to change.
          change({ preset: next, range: chosen ? presetRange(chosen.days) : range });
        }}
        onRange={(next) => change({ preset: 'custom', range: next })}
        onBy={(next) => change({ by: next })}
        onUser={(next) => change({ userId: next })}
        onTool={(next) => change({ tool: next })}
      />
      {problem ? null : usage.isError ? (
        <EmptyState tone="problem" role="alert">
          {usage.error instanceof ApiError && usage.error.issues.length > 0
            ? usage.error.issues.map((i) => i.message).join(' ')
            : 'The usage could not be loaded.'}{' '}
          <Button variant="secondary" onClick={() => void usage.refetch()}>
            Try again
          </Button>
        </EmptyState>
      ) : !usage.data ? (
        <EmptyState role="status">Loading the usage…</EmptyState>
      ) : (
        <div className={styles.results} aria-busy={usage.isFetching || undefined}>
          <Totals data={usage.data} />
          <UsageCharts data={usage.data} />
          <UsageTable data={usage.data} params={params} onRecords={setRecords} />
        </div>
      )}
      {problem ? null : <UsageStyle params={params} enabled={problem === null} />}
      <PricesPanel seen={usage.data?.models ?? []} />
      {records ? (
        <RecordsDialog title={records.title} params={records.params} onClose={() => setRecords(null)} />
      ) : null}
    </div>
  );
}

type FiltersProps = {
  preset: RangePreset;
  range: { from: string; to: string };
  by: UsagePeriod;
  userId: string;
  tool: string;
  data: UsageResponse | undefined;
  problem: string | null;
  onPreset: (preset: RangePreset) => void;
  onRange: (range: { from: string; to: string }) => void;
  onBy: (by: UsagePeriod) => void;
  onUser: (userId: string) => void;
  onTool: (tool: string) => void;
};

/** The range (a preset or two days), day or week, and a person and a tool to narrow it to. */
function Filters({ preset, range, by, userId, tool, data, problem, ...on }: FiltersProps) {
  const id = useId();
  const people = data?.people ?? [];
  const tools = data?.tools ?? [];
  return (
    <Panel as="section" className={styles.filters} aria-label="What to show">
      <div className={styles.field}>
        <label htmlFor={`${id}-preset`} className={styles.label}>
          Range
        </label>
        <SelectInput
          id={`${id}-preset`}
          value={preset}
          onChange={(e) => on.onPreset(e.target.value as RangePreset)}
        >
          {rangePresets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">Chosen days</option>
        </SelectInput>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-from`} className={styles.label}>
          From (UTC)
        </label>
        <TextInput
          id={`${id}-from`}
          type="date"
          value={range.from}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => on.onRange({ ...range, from: e.target.value })}
        />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-to`} className={styles.label}>
          To (UTC)
        </label>
        <TextInput
          id={`${id}-to`}
          type="date"
          value={range.to}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => on.onRange({ ...range, to: e.target.value })}
        />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-by`} className={styles.label}>
          Per
        </label>
        <SelectInput id={`${id}-by`} value={by} onChange={(e) => on.onBy(e.target.value as UsagePeriod)}>
          <option value="day">Day</option>
          <option value="week">Week (Monday to Sunday)</option>
        </SelectInput>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-user`} className={styles.label}>
          Person
        </label>
        <SelectInput id={`${id}-user`} value={userId} onChange={(e) => on.onUser(e.target.value)}>
          <option value="">Everyone</option>
          {/* A person named by the address who has no use in this range (a link kept from another day). */}
          {userId && !people.some((p) => p.userId === userId) ? (
            <option value={userId}>
              {data ? 'The person in the address (no use in this range)' : 'Loading…'}
            </option>
          ) : null}
          {people.map((p) => (
            <option key={p.userId} value={p.userId}>
              {p.email ?? p.name ?? p.userId}
            </option>
          ))}
        </SelectInput>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-tool`} className={styles.label}>
          Tool
        </label>
        <SelectInput id={`${id}-tool`} value={tool} onChange={(e) => on.onTool(e.target.value)}>
          <option value="">Every tool</option>
          {tool && !tools.includes(tool) ? <option value={tool}>{toolLabel(tool)}</option> : null}
          {tools.map((t) => (
            <option key={t} value={t}>
              {toolLabel(t)}
            </option>
          ))}
        </SelectInput>
      </div>
      {problem ? (
        <p id={`${id}-problem`} className={styles.problem} role="alert">
          {problem}
        </p>
      ) : null}
    </Panel>
  );
}

/** The range's figures, as cards. */
function Totals({ data }: { data: UsageResponse }) {
  const { totals } = data;
  const unpriced = data.models.filter(
    (m) => !m.priced && m.model !== '' && m.promptTokens + m.completionTokens > 0,
  );
  const cards = [
    { label: 'Generations', value: formatInteger(totals.generations) },
    { label: 'Tokens in', value: formatInteger(totals.promptTokens) },
    { label: 'Tokens out', value: formatInteger(totals.completionTokens) },
    { label: 'Estimated cost', value: totals.cost === null ? 'No price set' : formatCost(totals.cost) },
    {
      label: 'Failed',
      value: formatInteger(totals.failed),
      note: totals.cancelled > 0 ? `${formatInteger(totals.cancelled)} cancelled` : undefined,
    },
    { label: 'Latency p50', value: formatLatency(totals.p50Ms) },
    { label: 'Latency p95', value: formatLatency(totals.p95Ms) },
  ];
  return (
    <section aria-label="Totals" className={styles.totalsBlock}>
      <dl className={styles.totals}>
        {cards.map((card) => (
          <div key={card.label} className={styles.total}>
            <dt className={styles.totalLabel}>{card.label}</dt>
            <dd className={styles.totalValue}>{card.value}</dd>
            {card.note ? <dd className={styles.totalNote}>{card.note}</dd> : null}
          </div>
        ))}
      </dl>
      <p className={styles.muted}>
        The cost is estimated with today’s prices per 1,000 tokens (set below), for priced models only.
        Latency is read from buckets 10 % wide, hence ≈.
        {unpriced.length > 0 ? (
          <>
            {' '}
            <strong>No price set for: {unpriced.map((m) => m.model).join(', ')}</strong> (
            {formatInteger(totals.unpricedTokens)} tokens not in the cost).
          </>
        ) : null}
      </p>
    </section>
  );
}

const periodText = (row: UsageRow) =>
  row.periodStart === row.periodEnd ? row.periodStart : `${row.periodStart} – ${row.periodEnd}`;

/** One row per period, person and tool, each opening its records; the whole table downloads as CSV. */
function UsageTable({
  data,
  params,
  onRecords,
}: {
  data: UsageResponse;
  params: UsageParams;
  onRecords: (records: { title: string; params: RecordsParams }) => void;
}) {
  const headingId = useId();
  const [downloading, setDownloading] = useState(false);
  const [failed, setFailed] = useState(false);
  async function download() {
    setDownloading(true);
    setFailed(false);
    try {
      saveFile(await downloadUsageCsv(params));
    } catch {
      setFailed(true);
    } finally {
      setDownloading(false);
    }
  }
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <div>
          <h2 id={headingId} className={styles.title}>
            Per {data.by === 'week' ? 'week' : 'day'}, person and tool
          </h2>
          <p className={styles.muted}>
            {data.rowCount > data.rows.length
              ? `The newest ${formatInteger(data.rows.length)} of ${formatInteger(data.rowCount)} rows; the CSV file has them all.`
              : `${formatInteger(data.rowCount)} ${data.rowCount === 1 ? 'row' : 'rows'}. Open a row’s records to see what it is made of.`}
          </p>
        </div>
        <Button
          variant="secondary"
          onClick={() => void download()}
          disabled={downloading || data.rowCount === 0}
        >
          {downloading ? 'Preparing…' : 'Download CSV'}
        </Button>
      </div>
      {failed ? (
        <p className={styles.problem} role="alert">
          The CSV file could not be made. Try again.
        </p>
      ) : null}
      {data.rows.length === 0 ? (
        <EmptyState>No generations in this range.</EmptyState>
      ) : (
        <div className={styles.tableFrame} role="region" aria-labelledby={headingId} tabIndex={0}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{data.by === 'week' ? 'Week' : 'Day'}</th>
                <th scope="col">Person</th>
                <th scope="col">Tool</th>
                <th scope="col" className={styles.number}>
                  Generations
                </th>
                <th scope="col" className={styles.number}>
                  Failed
                </th>
                <th scope="col" className={styles.number}>
                  Tokens in
                </th>
                <th scope="col" className={styles.number}>
                  Tokens out
                </th>
                <th scope="col" className={styles.number}>
                  Est. cost
                </th>
                <th scope="col" className={styles.number}>
                  p50
                </th>
                <th scope="col" className={styles.number}>
                  p95
                </th>
                <th scope="col">
                  <span className={styles.visuallyHidden}>Records</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((row) => {
                const who = row.user.email ?? row.user.name ?? row.user.userId;
                return (
                  <tr key={`${row.periodStart}|${row.user.userId}|${row.tool}`}>
                    <td className={styles.nowrap}>{periodText(row)}</td>
                    <td className={styles.who}>{who}</td>
                    <td>{toolLabel(row.tool)}</td>
                    <td className={styles.number}>{formatInteger(row.generations)}</td>
                    <td className={styles.number}>{formatInteger(row.failed)}</td>
                    <td className={styles.number}>{formatInteger(row.promptTokens)}</td>
                    <td className={styles.number}>{formatInteger(row.completionTokens)}</td>
                    <td className={styles.number}>
                      {row.cost === null ? '—' : formatCost(row.cost)}
                      {row.cost !== null && row.unpricedTokens > 0 ? '*' : ''}
                    </td>
                    <td className={styles.number}>{formatLatency(row.p50Ms)}</td>
                    <td className={styles.number}>{formatLatency(row.p95Ms)}</td>
                    <td>
                      <Button
                        variant="secondary"
                        className={styles.rowButton}
                        aria-label={`Records of ${who}, ${toolLabel(row.tool)}, ${periodText(row)}`}
                        onClick={() =>
                          onRecords({
                            title: `${toolLabel(row.tool)} · ${who} · ${periodText(row)}`,
                            params: {
                              from: row.periodStart,
                              to: row.periodEnd,
                              userId: row.user.userId,
                              tool: row.tool,
                            },
                          })
                        }
                      >
                        Records
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p className={styles.muted}>
        — no price for the row’s models; * some of the row’s tokens are of a model without a price.
      </p>
    </Panel>
  );
}

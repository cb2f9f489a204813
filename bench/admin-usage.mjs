// The admin usage page's queries (issue 30) at 1,000,000 generation records on PostgreSQL and
// 100,000 on PGlite: the service the route calls (modules/admin/admin-usage.service.ts), on a
// database migrated by GEM's own migrations, its rollups kept by the trigger function of migrations
// 0021 and 0023.
// Run it with tsx (it imports the service's TypeScript):
//   npx tsx bench/admin-usage.mjs [postgres://postgres@127.0.0.1:5432/test] [runs=40] [pg-records=1000000] [pglite-records=100000]
// It creates (and at the end drops) its own database, gem_bench_usage, on that server, and a
// PGlite data folder in a temporary directory. Results and how to read them: bench/admin-usage.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { createAdminUsage } from '../apps/server/src/modules/admin/admin-usage.service.ts';

const root = path.resolve(import.meta.dirname, '..');
const migrationsDir = path.join(root, 'apps/server/drizzle');
const adminUrl = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/test';
const runs = Number(process.argv[3] ?? 40);
const PG_RECORDS = Number(process.argv[4] ?? 1_000_000);
const PGLITE_RECORDS = Number(process.argv[5] ?? 100_000);
const USERS = 200;
const DAYS = 365;
const DB = 'gem_bench_usage';
const benchUrl = Object.assign(new URL(adminUrl), { pathname: `/${DB}` }).toString();

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const today = day(0);

/**
 * `records` generations over the last year, newest today: 200 people (a few use GEM far more than
 * the rest: the person is the cube of a uniform draw), 6 tools, the model GEM was configured with
 * at the time (gpt-4o-mini until 120 days ago, gpt-4o since, a few calls on claude-sonnet), 5 %
 * failed with one of three causes, 2 % cancelled, latency from 0.3 to 30 s. One statement,
 * set-based; the draws are hashes of the record's number, so every run writes the same records.
 */
const fill = (records) => sql`
  insert into generations (user_id, generator, input, output, model, prompt_tokens, completion_tokens,
    latency_ms, outcome, error_code, created_at)
  select u.id,
    (array['article','social-media-post','paid-ads','teaser-generator','summarize','brief'])[1 + floor(t * 6)::int],
    '{}'::jsonb, null,
    case when f < 0.02 then null when m < 0.03 then 'claude-sonnet'
      when age > 120 then 'gpt-4o-mini' else 'gpt-4o' end,
    case when f < 0.05 then null else 300 + floor(m * 3000)::int end,
    case when f < 0.05 then null else 50 + floor(t * 900)::int end,
    (300 + power(l, 3) * 29700)::int,
    case when f < 0.05 then 'failed' when f < 0.07 then 'cancelled' else 'succeeded' end,
    case when f < 0.05 then (array['ai_unavailable','ai_timeout','ai_busy'])[1 + floor(f * 60)::int % 3]
         when f < 0.07 then 'client_closed' end,
    now() - age * interval '1 day'
  from (select i, i::float8 / ${records} * ${DAYS} as age,
          (hashint8(i * 5 + 1)::float8 + 2147483648) / 4294967296 as f,
          (hashint8(i * 5 + 2)::float8 + 2147483648) / 4294967296 as t,
          (hashint8(i * 5 + 3)::float8 + 2147483648) / 4294967296 as m,
          (hashint8(i * 5 + 4)::float8 + 2147483648) / 4294967296 as l,
          least(${USERS - 1}, floor(power((hashint8(i * 5)::float8 + 2147483648) / 4294967296, 3) * ${USERS}))::int as person
        from generate_series(0, ${records - 1}) as i) s
  join (select id, row_number() over (order by subject) - 1 as n from users) u on u.n = s.person`;

/** The rollups, and how many rows each holds. */
const rollups = [
  'usage_daily',
  'usage_latency_daily',
  'usage_tool_daily',
  'usage_tool_latency_daily',
  'usage_person_weekly',
  'usage_person_tool_weekly',
  'usage_person_model_weekly',
];

async function seed(db, records) {
  await db.execute(sql`insert into users (issuer, subject, email, display_name)
    select 'https://bench.example', 'person-' || lpad(n::text, 3, '0'), 'person-' || n || '@bench.example', 'Person ' || n
    from generate_series(1, ${USERS}) as n`);
  await db.execute(sql`insert into model_prices (model, input_per_1k, output_per_1k)
    values ('gpt-4o', 0.0025, 0.01), ('gpt-4o-mini', 0.00015, 0.0006)`);
  const started = performance.now();
  // Through the rollup triggers, as GEM records them (they roll a statement's records up at once).
  await db.execute(fill(records));
  const seconds = (performance.now() - started) / 1000;
  // As autovacuum leaves an insert-only table: statistics and the visibility map.
  await db.execute(sql`vacuum analyze`);
  const [counts] = (
    await db.execute(
      sql.raw(`select (select count(*) from generations)::int as g,
        (select sum(generations) from usage_tool_daily)::int as rolled,
        ${rollups.map((t) => `(select count(*) from ${t})::int as ${t}`).join(', ')}`),
    )
  ).rows;
  return { seconds, ...counts };
}

/** Records written one at a time with the trigger on, as the AI platform writes them: the trigger's cost. */
async function triggerCost(db, n) {
  const [{ id }] = (await db.execute(sql`select id from users order by subject limit 1`)).rows;
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await db.execute(sql`insert into generations (user_id, generator, input, model, prompt_tokens,
        completion_tokens, latency_ms, outcome) values (${id}, 'article', '{}'::jsonb, 'gpt-4o', 500, 200, 1200, 'succeeded')`);
    times.push(performance.now() - t);
  }
  return times;
}

const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

async function time(label, fn) {
  for (let i = 0; i < 3; i++) await fn();
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { label, p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), max: ms.at(-1) };
}

/** What the usage page asks for: the page itself under its presets and filters, the CSV, the drill-down. */
async function measure(db) {
  const usage = createAdminUsage({ db, now: Date.now });
  const [{ id: heavy }] = (
    await db.execute(
      sql`select user_id as id from usage_person_weekly group by 1 order by sum(generations) desc limit 1`,
    )
  ).rows;
  // The CSV file as the route sends it: read to its end.
  const csv = async (filter) => {
    let bytes = 0;
    for await (const chunk of usage.usageCsv(filter).body) bytes += chunk.length;
    return bytes;
  };
  const last = (days) => ({ from: day(-(days - 1)), to: today });
  const cases = [
    ['page: last 7 days by day', () => usage.usage({ ...last(7), by: 'day' })],
    ['page: last 30 days by day', () => usage.usage({ ...last(30), by: 'day' })],
    ['page: last 90 days by week', () => usage.usage({ ...last(90), by: 'week' })],
    ['page: 366 days by week', () => usage.usage({ ...last(366), by: 'week' })],
    ['page: 30 days, one person', () => usage.usage({ ...last(30), by: 'day', userId: heavy })],
    ['page: 30 days, one tool', () => usage.usage({ ...last(30), by: 'day', tool: 'paid-ads' })],
    ['CSV: last 30 days by day (all rows)', () => csv({ ...last(30), by: 'day' })],
    ['records: 30 days, first page', () => usage.generations({ ...last(30) })],
    [
      'records: a row (a day, a person, a tool)',
      () => usage.generations({ from: day(-3), to: day(-3), userId: heavy, tool: 'article' }),
    ],
    [
      'records: 90 days, one failure cause',
      () => usage.generations({ ...last(90), outcome: 'failed', errorCode: 'ai_busy' }),
    ],
  ];
  const results = [];
  for (const [label, fn] of cases) results.push(await time(label, fn));
  const page = await usage.usage({ ...last(30), by: 'day' });
  return { results, rows30: page.rowCount, generations30: page.totals.generations };
}

function print(title, seeded, { results, rows30, generations30 }, extra = '') {
  console.log(`\n## ${title}`);
  console.log(
    `records ${seeded.g.toLocaleString('en')}, rolled-up generations ${seeded.rolled.toLocaleString('en')}; ` +
      rollups.map((t) => `${t} ${seeded[t].toLocaleString('en')} rows`).join(', ') +
      `; filled in ${seeded.seconds.toFixed(1)} s${extra}`,
  );
  console.log(
    `last 30 days: ${generations30.toLocaleString('en')} generations, ${rows30.toLocaleString('en')} table rows`,
  );
  console.log(`\n| query | p50 | p95 | max |\n| --- | --- | --- | --- |`);
  for (const r of results)
    console.log(`| ${r.label} | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r.max.toFixed(1)} ms |`);
}

console.log(
  `# admin usage bench, ${new Date().toISOString()}, ${cpus().length} cores, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${runs} runs a query`,
);
// The machine's load while the figures are taken: the 1-minute load average every 5 s.
const loads = [];
const sampler = setInterval(() => loads.push(loadavg()[0]), 5000);
const loadSummary = () => {
  const sorted = [...loads].sort((a, b) => a - b);
  return sorted.length === 0
    ? 'not sampled'
    : `min ${sorted[0].toFixed(1)}, median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)}, max ${sorted.at(-1).toFixed(1)}`;
};

// PostgreSQL: 1,000,000 records.
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${DB}`);
await admin.query(`create database ${DB}`);
try {
  const database = await openDatabase({ kind: 'postgres', url: benchUrl, poolMax: 10 }, migrationsDir);
  try {
    const [{ version }] = (await database.db.execute(sql`select version()`)).rows;
    console.log(version);
    const seeded = await seed(database.db, PG_RECORDS);
    const trigger = (await triggerCost(database.db, 200)).sort((a, b) => a - b);
    print(
      `PostgreSQL, ${PG_RECORDS.toLocaleString('en')} records`,
      seeded,
      await measure(database.db),
      ` (one statement, through the triggers); one record written alone: p50 ${quantile(trigger, 0.5).toFixed(2)} ms, p95 ${quantile(trigger, 0.95).toFixed(2)} ms`,
    );
  } finally {
    await database.close();
  }
} finally {
  await admin.query(`drop database if exists ${DB}`);
  await admin.end();
}

// PGlite: 100,000 records.
const dir = mkdtempSync(path.join(tmpdir(), 'gem-usage-bench-'));
try {
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'data') }, migrationsDir);
  try {
    const seeded = await seed(database.db, PGLITE_RECORDS);
    print(
      `PGlite, ${PGLITE_RECORDS.toLocaleString('en')} records`,
      seeded,
      await measure(database.db),
      ' (one statement, through the triggers)',
    );
  } finally {
    await database.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

clearInterval(sampler);
console.log(`\nload average (1 min, every 5 s) while it ran: ${loadSummary()}`);

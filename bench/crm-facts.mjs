// The embedded demo CRM (issue 14): how long the campaign audience builder waits for a
// campaign's facts (Crm.campaignFacts: the members split by five kinds of value in one
// grouping-sets statement, the past campaigns of its type, the vocabulary) for the demo data
// set's largest campaign, 5,000 members of 54,000 memberships, on PostgreSQL; and how long the
// lazy seeding of the whole data set takes on PGlite (a fresh in-memory database each run).
//   flock /tmp/gem-heavy.lock node bench/crm-facts.mjs [--runs 300] [--rounds 5]
//        [--pg-url postgres://postgres@127.0.0.1:5432/postgres] [--seeds 3]
// It creates (and at the end drops) its own database, gem_bench_crm, seeds it with GEM's own
// seeding (seedDemoCrm) and times GEM's own adapter (createEmbeddedCrm). Results: bench/README.md,
// "Campaign audience builder: the embedded CRM".
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { register } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '5' },
    seeds: { type: 'string', default: '3' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const RUNS = Number(opts.runs);
const ROUNDS = Number(opts.rounds);
const SEEDS = Number(opts.seeds);
const DB_NAME = 'gem_bench_crm';

register();
const load = (file) => import(pathToFileURL(path.join(root, file)).href);
const { openDatabase } = await load('apps/server/src/db/client.ts');
const { seedDemoCrm } = await load('apps/server/src/integrations/crm/embedded/seed.ts');
const { createEmbeddedCrm } = await load('apps/server/src/integrations/crm/embedded/embedded-crm.ts');
const { generateDemoCrm, FLAGSHIP_MEMBERS } = await load(
  'apps/server/src/integrations/crm/embedded/demo-data.ts',
);
const migrationsDir = path.join(root, 'apps/server/drizzle');
const anchorDate = new Date().toISOString().slice(0, 10);
const options = { topValues: 10, pastCampaigns: 5, vocabularySize: 40 };

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const percentile = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (n) => `${n.toFixed(1)} ms`;

// Seeding on PGlite: generation and the inserts, a fresh in-memory database each time.
const seedTimes = [];
for (let i = 0; i < SEEDS; i += 1) {
  const database = await openDatabase({ kind: 'pglite', client: new PGlite() }, migrationsDir);
  const started = performance.now();
  await seedDemoCrm(database.db, { anchorDate });
  seedTimes.push(performance.now() - started);
  await database.close();
}

// The facts on PostgreSQL.
const adminUrl = opts['pg-url'];
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${DB_NAME}`);
await admin.query(`create database ${DB_NAME}`);
const url = new URL(adminUrl);
url.pathname = `/${DB_NAME}`;
const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 5 }, migrationsDir);
const pgSeedStarted = performance.now();
await seedDemoCrm(database.db, { anchorDate });
const pgSeed = performance.now() - pgSeedStarted;
await database.db.$client.query('analyze');

const data = generateDemoCrm({ anchorDate });
const sizes = new Map();
for (const m of data.members) sizes.set(m.campaign_id, (sizes.get(m.campaign_id) ?? 0) + 1);
const flagship = data.campaigns.find((c) => sizes.get(c.id) === FLAGSHIP_MEMBERS);
const crm = createEmbeddedCrm({ db: database.db });
for (let i = 0; i < 20; i += 1) await crm.campaignFacts(flagship.id, options);

const rounds = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const facts = await crm.campaignFacts(flagship.id, options);
    times.push(performance.now() - started);
    if (facts.facts.members !== FLAGSHIP_MEMBERS) throw new Error('unexpected facts');
  }
  rounds.push({ p50: percentile(times, 50), p99: percentile(times, 99) });
}

// One report's reach, for scale.
const reachTimes = [];
for (let i = 0; i < RUNS; i += 1) {
  const started = performance.now();
  await crm.reach({
    type: 'new-prospects',
    campaignId: flagship.id,
    segment: {
      subIndustries: ['Banking', 'Insurance', 'Chemicals'],
      roles: ['Decision maker'],
      titles: ['Head of Tax'],
      workAreas: ['Finance', 'Tax'],
    },
    pastCampaignIds: [],
  });
  reachTimes.push(performance.now() - started);
}

await database.close();
await admin.query(`drop database if exists ${DB_NAME}`);
await admin.end();

console.log(
  `${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, Node ${process.version}`,
);
console.log(
  `data set: ${data.campaigns.length} campaigns, ${data.accounts.length} accounts, ${data.contacts.length} contacts, ${data.members.length} memberships`,
);
console.log(
  `seeding on PGlite (${SEEDS} runs): median ${ms(median(seedTimes))} (${seedTimes.map(ms).join(', ')})`,
);
console.log(`seeding on PostgreSQL: ${ms(pgSeed)}`);
console.log(`campaignFacts, ${FLAGSHIP_MEMBERS} members, PostgreSQL, ${ROUNDS} rounds of ${RUNS}:`);
for (const [i, r] of rounds.entries()) console.log(`  round ${i + 1}: p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`);
console.log(
  `  median of rounds: p50 ${ms(median(rounds.map((r) => r.p50)))}, p99 ${ms(median(rounds.map((r) => r.p99)))}`,
);
console.log(
  `reach (new prospects, a four-part segment), ${RUNS} runs: p50 ${ms(percentile(reachTimes, 50))}, p99 ${ms(percentile(reachTimes, 99))}`,
);

// A campaign's assets on a PostgreSQL server: 50 assets with 20 versions each, read through the
// built server (the campaign, its asset list, one asset with its versions), against
// /api/ai/status in the same run (an authenticated read of the same server that does no database
// work): p50, p95 and the ratio, median of the runs. Target: each read under 150 ms at p95.
// Run `npm run build` first, then
//   node bench/campaign-assets.mjs [postgres://postgres@127.0.0.1:5432/test] [runs=5] [requests=200]
// It creates (and at the end drops) its own database, gem_bench_campaigns, on that server.
// Results: bench/campaign-assets.md.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { accessTokenFor } from './support/access-token.mjs';

const root = path.resolve(import.meta.dirname, '..');
const adminUrl = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/test';
const runs = Number(process.argv[3] ?? 5);
const requests = Number(process.argv[4] ?? 200);
const DB = 'gem_bench_campaigns';
const ASSETS = 50;
const VERSIONS = 20;
const benchUrl = Object.assign(new URL(adminUrl), { pathname: `/${DB}` }).toString();
const channels = [
  'article',
  'linkedin-post',
  'facebook-post',
  'x-post',
  'google-ads',
  'meta-ads',
  'email-teaser',
];

const freePort = () =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

async function waitReady(base, child) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(`${base}/api/ready`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('GEM did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A campaign of the marketer's with its brief as version 1; its id. */
async function seedCampaign(client, ownerId) {
  const brief = {
    campaignName: 'Bench campaign',
    campaignType: ['Webinar'],
    primaryObjective: 'Leads.',
    eventObjective: '',
    eventDate: null,
    targetAudience: 'CFOs',
    budget: '',
    keyMessages: 'Cash flow.',
    timeline: '',
    channels: ['LinkedIn'],
    activityKPIs: [],
    businessKPIs: [],
    creativeAssets: '',
    additionalNotes: '',
    recommendations: [],
  };
  const {
    rows: [campaign],
  } = await client.query(
    `insert into campaigns (owner_id, name) values ($1, 'Bench campaign') returning id`,
    [ownerId],
  );
  await client.query(
    `insert into campaign_brief_versions (campaign_id, version, brief_data, author_id) values ($1, 1, $2, $3)`,
    [campaign.id, JSON.stringify(brief), ownerId],
  );
  return campaign.id;
}

const text = (n) =>
  `Wersja ${n}: ${'Widoczność przepływów pieniężnych zwraca się sama. Dołącz do webinaru dla dyrektorów finansowych. '.repeat(4)}`;

async function seedAssets(client, campaignId, count, ownerId) {
  for (let a = 0; a < count; a += 1) {
    const {
      rows: [asset],
    } = await client.query(
      `insert into campaign_assets (campaign_id, channel, current_version, last_version) values ($1, $2, $3, $3) returning id`,
      [campaignId, channels[a], VERSIONS],
    );
    const values = [];
    const params = [asset.id, ownerId];
    for (let v = 1; v <= VERSIONS; v += 1) {
      params.push(
        text(v),
        v === 1
          ? JSON.stringify({
              briefVersion: 1,
              tool: 'article',
              promptVersion: 'article@00000000',
              model: 'bench',
              generationId: 'g',
            })
          : null,
      );
      values.push(
        `($1, ${v}, '${v === 1 ? 'generated' : 'edited'}', $${params.length - 1}, $2, $${params.length}::jsonb)`,
      );
    }
    await client.query(
      `insert into campaign_asset_versions (asset_id, version, kind, text, author_id, provenance) values ${values.join(',')}`,
      params,
    );
  }
}

const pick = (xs, q) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil(q * xs.length) - 1))];
async function load(url, token, count) {
  const latencies = [];
  for (let i = 0; i < count; i += 1) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  return { p50: pick(latencies, 0.5), p95: pick(latencies, 0.95) };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const admin = new pg.Client({ connectionString: adminUrl });
let gem;
try {
  await admin.connect();
  await admin.query(`drop database if exists ${DB}`);
  await admin.query(`create database ${DB}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  gem = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      DATABASE_URL: benchUrl,
      GEM_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitReady(base, gem);
  const token = await accessTokenFor(base);
  // The marketer's user row exists once a signed-in request has been made.
  await fetch(`${base}/api/campaigns`, { headers: { authorization: `Bearer ${token}` } });
  const client = new pg.Client({ connectionString: benchUrl });
  await client.connect();
  const {
    rows: [owner],
  } = await client.query(`select id from users where lower(email) = 'marketer@example.com'`);
  // A campaign holds one asset per channel (seven); the 50 assets of 20 versions go in as seven
  // on the measured campaign and the other 43 on campaigns beside it (same tables, same owner).
  const measured = await seedCampaign(client, owner.id);
  await seedAssets(client, measured, channels.length, owner.id);
  for (let left = ASSETS - channels.length; left > 0; left -= channels.length) {
    const other = await seedCampaign(client, owner.id);
    await seedAssets(client, other, Math.min(channels.length, left), owner.id);
  }
  await client.query('analyze');
  const {
    rows: [{ n }],
  } = await client.query('select count(*)::int as n from campaign_asset_versions');
  await client.end();

  const cases = [
    ['reference: GET /api/ai/status', `${base}/api/ai/status`],
    ['GET /api/campaigns/:id (the campaign)', `${base}/api/campaigns/${measured}`],
    ['GET /api/campaigns/:id/assets (7 assets)', `${base}/api/campaigns/${measured}/assets`],
    [
      'GET /api/campaigns/:id/assets/linkedin-post (20 versions)',
      `${base}/api/campaigns/${measured}/assets/linkedin-post`,
    ],
    ['GET /api/campaigns (the list)', `${base}/api/campaigns`],
  ];
  for (const [, url] of cases) await load(url, token, 30); // warm-up
  const results = cases.map(() => ({ p50: [], p95: [] }));
  for (let r = 0; r < runs; r += 1) {
    for (const [i, [, url]] of cases.entries()) {
      const { p50, p95 } = await load(url, token, requests);
      results[i].p50.push(p50);
      results[i].p95.push(p95);
    }
  }
  const ref = median(results[0].p95);
  console.log(
    `${new Date().toISOString().slice(0, 10)}, ${n} asset versions in the database, ${runs} runs of ${requests} requests one at a time, load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  console.log('| read | p50 (ms, median) | p95 (ms, median) | p95 ÷ reference p95 |');
  console.log('| --- | --- | --- | --- |');
  for (const [i, [label]] of cases.entries()) {
    const p95 = median(results[i].p95);
    console.log(
      `| ${label} | ${median(results[i].p50).toFixed(1)} | ${p95.toFixed(1)} | ${(p95 / ref).toFixed(1)} |`,
    );
  }
} finally {
  gem?.kill();
  await admin.query(`drop database if exists ${DB} with (force)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
}

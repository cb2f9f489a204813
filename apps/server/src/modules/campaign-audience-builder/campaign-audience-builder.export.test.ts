import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import {
  campaignAudienceBuilderPaths as paths,
  campaignsResponseSchema,
  reportQueryEntries,
  reportResponseSchema,
  type CampaignSummary,
  type ReportContact,
  type ReportResponse,
  type SegmentInput,
} from '@gem/contracts/campaign-audience-builder';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorOf, useAiHarness } from '../../../test/ai-harness';
import type { App } from '../../app';
import { rowsOf } from '../../db/rows';
import { createMetrics, type Metrics } from '../../lib/metrics';
import { EXPORT_PAGE_SIZE } from './campaign-audience-builder.csv-export';
import { REPORTS_AT_ONCE, reportsRunning } from './campaign-audience-builder.report-leases';

/**
 * The embedded CRM's CSV export through the real app (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set): a whole report goes out a page of EXPORT_PAGE_SIZE contacts at a
 * time, read from the CRM only as the client takes the file, and each user has REPORTS_AT_ONCE
 * reports or exports running at most, counted in the database across instances. Nothing here is
 * timed: pages, rows and leases are counted.
 */

const t = useAiHarness();
const MARTA = 'marta';
const OLEK = 'olek';
let campaign: CampaignSummary;

const everyone: SegmentInput = { subIndustries: [], roles: [], titles: [], workAreas: [] };
const queryOf = (segment: SegmentInput = everyone) =>
  new URLSearchParams(
    reportQueryEntries({ type: 'new-prospects', campaignId: campaign.id, segment, pastCampaignIds: [] }),
  ).toString();

async function get(app: App, url: string, user = MARTA) {
  return app.inject({ method: 'GET', url, headers: { authorization: await t.bearer(user) } });
}

/** The export as a stream the test reads at its own pace (light-my-request keeps backpressure). */
async function openExport(app: App, user = MARTA) {
  const res = await app.inject({
    method: 'GET',
    url: `${paths.reportCsv}?${queryOf()}`,
    headers: { authorization: await t.bearer(user) },
    payloadAsStream: true,
  });
  return { res, body: res.stream() as Readable };
}

/** RFC 4180 as csv-stringify writes it: quoted cells with "" inside, CRLF between records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** A report page's contact as its CSV row. */
const csvRowOf = (c: ReportContact) => [
  c.id,
  c.name,
  c.email ?? '',
  c.title ?? '',
  c.accountId ?? '',
  c.account ?? '',
  c.industry ?? '',
  c.subIndustry ?? '',
  c.employees === null ? '' : String(c.employees),
  c.annualRevenue === null ? '' : String(c.annualRevenue),
  c.lastResponse?.campaignName ?? '',
  c.lastResponse?.respondedAt ?? '',
];

async function metricValues(metrics: Metrics, name: string) {
  const found = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  return found?.values ?? [];
}
/** Pages the app's exports read, and the rows in them (gem_crm_export_page_rows). */
async function pagesRead(metrics: Metrics) {
  const values = await metricValues(metrics, 'gem_crm_export_page_rows');
  const of = (suffix: string) =>
    values.find((v) => (v as { metricName?: string }).metricName === `gem_crm_export_page_rows_${suffix}`)
      ?.value ?? 0;
  return { pages: of('count'), rows: of('sum') };
}
async function exportsEnded(metrics: Metrics, outcome: string) {
  return (await metricValues(metrics, 'gem_crm_exports_total')).find((v) => v.labels.outcome === outcome)
    ?.value;
}

/** CRM report leases not released yet, of every user. */
async function runningLeases() {
  const [row] = await rowsOf<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from ai_call_leases where kind = 'crm-report' and released_at is null`,
  );
  return row!.n;
}

/** Waits for what happens after the client has its answer (a lease given back as a stream closes). */
const until = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

/** The CRM's ids and the e-mail, so the list goes into an e-mail tool or back into the CRM. */
const HEADER = [
  'Contact ID',
  'Name',
  'E-mail',
  'Title',
  'Account ID',
  'Account',
  'Industry',
  'Sub-industry',
  'Employees',
  'Annual revenue',
  'Last response',
  'Responded on',
];

beforeAll(async () => {
  const res = await get(t.main, paths.campaigns);
  expect(res.statusCode).toBe(200);
  // The newest campaign: few members, so nearly all 10,000 contacts are its new prospects.
  campaign = campaignsResponseSchema.parse(res.json()).campaigns[0]!;
}, 120_000);

// A finished export gives its lease back as its stream closes, just after the client has the file.
beforeEach(async () => {
  await until(async () => expect(await runningLeases()).toBe(0));
});

describe('a whole report as a CSV file', () => {
  it('sends every contact once, in the report page’s order, read in pages of EXPORT_PAGE_SIZE', async () => {
    const metrics = createMetrics();
    const app = await t.app({ metrics });
    const first = reportResponseSchema.parse((await get(app, `${paths.report}?${queryOf()}`)).json());
    expect(first.total).toBeGreaterThan(9_000);

    const res = await get(app, `${paths.reportCsv}?${queryOf()}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body.startsWith('\uFEFFContact ID,Name,E-mail,')).toBe(true);
    expect(res.body.split('\uFEFF')).toHaveLength(2);
    const [header, ...rows] = parseCsv(res.body.slice(1));
    expect(header).toEqual(HEADER);
    expect(rows.filter((r) => r[0] === 'Contact ID' && r[1] === 'Name')).toEqual([]);
    expect(rows).toHaveLength(first.total);

    // Each contact of the report once: the same rows as the database holds for it.
    const expected = await rowsOf<Record<string, string>>(
      t.database.db,
      sql`
      select c.id, c.first_name || ' ' || c.last_name as name, coalesce(c.email, '') as email,
        coalesce(c.title, '') as title, coalesce(c.account_id, '') as account_id,
        coalesce(a.name, '') as account, coalesce(a.industry, '') as industry,
        coalesce(a.sub_industry, '') as sub_industry, coalesce(a.employees::text, '') as employees,
        coalesce(a.annual_revenue::text, '') as revenue
      from crm_contacts c left join crm_accounts a on a.id = c.account_id
      where not exists (select 1 from crm_campaign_members m where m.contact_id = c.id and m.campaign_id = ${campaign.id})
    `,
    );
    const key = (cells: string[]) => cells.slice(0, 10).join('\u0000');
    expect(rows.map(key).sort()).toEqual(
      expected
        .map((r) =>
          key([
            r.id!,
            r.name!,
            r.email!,
            r.title!,
            r.account_id!,
            r.account!,
            r.industry!,
            r.sub_industry!,
            r.employees!,
            r.revenue!,
          ]),
        )
        .sort(),
    );
    // Every demo contact has an e-mail address and an account.
    expect(rows.every((r) => r[2]!.includes('@') && /^001\w{15}$/.test(r[4]!))).toBe(true);

    // Read in pages, each after the one before: as many as the size says, none larger.
    const read = await pagesRead(metrics);
    expect(read).toEqual({ pages: Math.ceil(first.total / EXPORT_PAGE_SIZE), rows: first.total });
    await until(async () => expect(await exportsEnded(metrics, 'completed')).toBe(1));

    // Where one page of the export ends and the next begins, the rows are the report page's
    // (offset pages of 50): nothing skipped or repeated at a boundary, the same order.
    const pageAt = async (page: number): Promise<ReportResponse> =>
      reportResponseSchema.parse((await get(app, `${paths.report}?${queryOf()}&page=${page}`)).json());
    const lastPage = Math.ceil(first.total / first.pageSize);
    const boundary = Math.floor((first.total - 1) / EXPORT_PAGE_SIZE) * EXPORT_PAGE_SIZE;
    for (const at of [EXPORT_PAGE_SIZE, 2 * EXPORT_PAGE_SIZE, boundary]) {
      for (const index of [at - 1, at]) {
        const page = await pageAt(Math.floor(index / first.pageSize) + 1);
        expect(rows[index], `row ${index}`).toEqual(csvRowOf(page.contacts[index % first.pageSize]!));
      }
    }
    expect(rows[0]).toEqual(csvRowOf(first.contacts[0]!));
    expect(rows.at(-1)).toEqual(csvRowOf((await pageAt(lastPage)).contacts.at(-1)!));
  });

  it('reads the next page only as the client takes the file', async () => {
    const metrics = createMetrics();
    const app = await t.app({ metrics });
    const { body } = await openExport(app);
    let received = 0;
    let text = '';
    for await (const chunk of body) {
      text += String(chunk);
      received = text.split('\r\n').length - 2;
      // A slow client: the export gets turns to run ahead while this one waits for the database.
      for (let i = 0; i < 3; i += 1) await runningLeases();
      // What the export has read from the CRM, against what the client has: a few pages wait in
      // the stream's buffers, never the whole report.
      const { rows } = await pagesRead(metrics);
      expect(rows - received).toBeLessThanOrEqual(4 * EXPORT_PAGE_SIZE);
    }
    expect(received).toBeGreaterThan(9_000);
    expect((await pagesRead(metrics)).rows).toBe(received);
  });
});

describe('a user’s reports and exports at once', () => {
  it('refuses one more than REPORTS_AT_ONCE with 429 and words, counted across instances, and frees a slot when an export is read to its end', async () => {
    const metrics = createMetrics();
    const [one, two] = [await t.app({ metrics }), await t.app()];
    // Two exports that the client does not read: each stops after a few pages and holds its lease.
    const first = await openExport(one);
    const second = await openExport(two);
    expect([first.res.statusCode, second.res.statusCode]).toEqual([200, 200]);
    expect(await runningLeases()).toBe(2);

    const refused = await get(one, `${paths.reportCsv}?${queryOf()}`);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(errorOf(refused)).toMatchObject({
      code: 'too_many_requests',
      message: reportsRunning(REPORTS_AT_ONCE),
    });
    expect(refused.body).toContain('You already have 2 reports or CSV exports running.');
    expect(await exportsEnded(metrics, 'refused')).toBe(1);
    // The report page counts too; another user does not.
    expect((await get(two, `${paths.report}?${queryOf()}`)).statusCode).toBe(429);
    expect((await get(one, `${paths.report}?${queryOf()}`, OLEK)).statusCode).toBe(200);
    const other = await get(two, `${paths.reportCsv}?${queryOf()}`, OLEK);
    expect(other.statusCode).toBe(200);
    // Meanwhile the unread export on `one` has read no more than its buffers hold.
    expect((await pagesRead(metrics)).pages).toBeLessThanOrEqual(4);

    // Read to its end, the first export gives its slot back.
    let text = '';
    for await (const chunk of first.body) text += String(chunk);
    expect(text.trimEnd().split('\r\n').length).toBeGreaterThan(9_000);
    await until(async () => expect(await runningLeases()).toBe(1));
    await until(async () => expect(await exportsEnded(metrics, 'completed')).toBe(1));
    expect((await get(one, `${paths.report}?${queryOf()}`)).statusCode).toBe(200);
    for await (const _ of second.body);
  });

  it('frees the slot of a download the client abandons, and reads no more of it', async () => {
    const metrics = createMetrics();
    const app = await t.app({ metrics });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const authorization = await t.bearer(MARTA);
    // Over a real connection: the client reads the first chunk and hangs up.
    const firstChunk = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: `${paths.reportCsv}?${queryOf()}`, headers: { authorization } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', (chunk: Buffer) => {
            req.destroy();
            resolve(chunk.toString('utf8'));
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ECONNRESET') reject(err);
      });
      req.end();
    });
    expect(firstChunk.startsWith('\uFEFFContact ID,Name')).toBe(true);
    await until(async () => expect(await exportsEnded(metrics, 'aborted')).toBe(1));
    await until(async () => expect(await runningLeases()).toBe(0));
    // It stopped reading the CRM when the client left.
    expect((await pagesRead(metrics)).pages).toBeLessThan(9_000 / EXPORT_PAGE_SIZE);
    expect((await get(app, `${paths.reportCsv}?${queryOf()}`)).statusCode).toBe(200);
  });
});

describe('cells a spreadsheet would run', () => {
  it('starts a cell that begins with =, +, - or @ with an apostrophe', async () => {
    const db = t.database.db;
    await db.execute(sql`insert into crm_accounts (id, name, industry, sub_industry)
      values ('001FORMULA00000001', '+48 Hurt sp. z o.o.', '-5', 'Formula test')`);
    await db.execute(sql`insert into crm_contacts (id, account_id, first_name, last_name, email, title, role, work_area)
      values ('003FORMULA00000001', '001FORMULA00000001', '=HYPERLINK("http://x.example")', 'Kowalska',
        '-2+3@x.example', '@SUM(A1)', 'User', 'Finance')`);
    const res = await get(
      t.main,
      `${paths.reportCsv}?${queryOf({ ...everyone, subIndustries: ['Formula test'] })}`,
    );
    expect(res.statusCode).toBe(200);
    const [header, ...rows] = parseCsv(res.body.slice(1));
    expect(header).toEqual(HEADER);
    expect(rows).toEqual([
      [
        '003FORMULA00000001',
        `'=HYPERLINK("http://x.example") Kowalska`,
        `'-2+3@x.example`,
        `'@SUM(A1)`,
        '001FORMULA00000001',
        `'+48 Hurt sp. z o.o.`,
        `'-5`,
        'Formula test',
        '',
        '',
        '',
        '',
      ],
    ]);
  });

  it('sends the header alone for a report without contacts', async () => {
    const res = await get(
      t.main,
      `${paths.reportCsv}?${queryOf({ ...everyone, subIndustries: ['Space mining'] })}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`\uFEFF${HEADER.join(',')}\r\n`);
  });
});

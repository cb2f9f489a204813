import { createHash } from 'node:crypto';
import {
  bandOf,
  employeeBands,
  revenueBands,
  type ReportType,
  type SegmentInput,
} from '@gem/contracts/campaign-audience-builder';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/test-database';
import type { Database } from '../../../db/client';
import { rowsOf } from '../../../db/rows';
import type { CrmReportQuery } from '../crm';
import { SALESFORCE_ID_18, to18 } from '../salesforce-id';
import {
  DEMO_ACCOUNTS,
  DEMO_CONTACTS,
  FLAGSHIP_MEMBERS,
  generateDemoCrm,
  type DemoCrmData,
} from './demo-data';
import { createEmbeddedCrm } from './embedded-crm';
import { DEMO_CRM_VERSION, seedDemoCrm } from './seed';

// The embedded demo CRM on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is
// set): the seeded data set, its lazy and concurrent seeding, and every port method checked
// against a plain JavaScript reading of the same generated records.

const anchorDate = '2026-11-01';
let database: Database;
let data: DemoCrmData;

beforeAll(async () => {
  database = await createTestDatabase();
  data = generateDemoCrm({ anchorDate });
});
afterAll(async () => {
  await database?.close();
});

const count = async (table: string) => {
  const [row] = await rowsOf<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  );
  return row!.n;
};
const flagship = () => {
  const sizes = new Map<string, number>();
  for (const m of data.members) sizes.set(m.campaign_id, (sizes.get(m.campaign_id) ?? 0) + 1);
  return data.campaigns.find((c) => sizes.get(c.id) === FLAGSHIP_MEMBERS)!;
};

/** The contracts' segment and report semantics, read off the generated records. */
function expectedContacts(report: CrmReportQuery): string[] {
  const accounts = new Map(data.accounts.map((a) => [a.id, a]));
  const lower = (list: readonly string[]) => new Set(list.map((v) => v.toLowerCase()));
  const subs = lower(report.segment.subIndustries);
  const roles = lower(report.segment.roles);
  const titles = lower(report.segment.titles);
  const areas = lower(report.segment.workAreas);
  const employees = new Set<string>(report.segment.employeeBands ?? []);
  const revenue = new Set<string>(report.segment.revenueBands ?? []);
  const memberOf = new Map<string, { campaign: string; responded: boolean }[]>();
  for (const m of data.members) {
    const list = memberOf.get(m.contact_id) ?? [];
    list.push({ campaign: m.campaign_id, responded: m.has_responded });
    memberOf.set(m.contact_id, list);
  }
  return data.contacts
    .filter((c) => {
      const account = accounts.get(c.account_id)!;
      const sub = account.sub_industry.toLowerCase();
      if (subs.size > 0 && !subs.has(sub)) return false;
      if (employees.size > 0 && !employees.has(bandOf(employeeBands, account.employees)!)) return false;
      if (revenue.size > 0 && !revenue.has(bandOf(revenueBands, account.annual_revenue)!)) return false;
      if (
        roles.size + titles.size > 0 &&
        !roles.has(c.role.toLowerCase()) &&
        !titles.has(c.title.toLowerCase())
      )
        return false;
      if (areas.size > 0 && !areas.has(c.work_area.toLowerCase())) return false;
      const memberships = memberOf.get(c.id) ?? [];
      const current = memberships.find((m) => m.campaign === report.campaignId);
      if (report.type === 'follow-up') return current !== undefined && !current.responded;
      if (current) return false;
      if (report.type === 'new-prospects') return true;
      return memberships.some((m) => m.responded && report.pastCampaignIds.includes(m.campaign));
    })
    .map((c) => c.id);
}

describe('the demo data set', () => {
  it('is the same for the same seed and anchor day, and has its sizes', () => {
    const digest = (d: DemoCrmData) => createHash('sha256').update(JSON.stringify(d)).digest('hex');
    expect(digest(generateDemoCrm({ anchorDate }))).toBe(digest(data));
    expect(digest(generateDemoCrm({ anchorDate, seed: 7 }))).not.toBe(digest(data));
    expect(data.campaigns).toHaveLength(40);
    expect(data.accounts).toHaveLength(DEMO_ACCOUNTS);
    expect(data.contacts).toHaveLength(DEMO_CONTACTS);
    expect(flagship()).toBeDefined();
    expect(new Set(data.accounts.map((a) => a.name)).size).toBe(DEMO_ACCOUNTS);
  });

  it('has Salesforce-style ids with their case-safe suffix, and only fictional addresses', () => {
    const all = [...data.campaigns, ...data.accounts, ...data.contacts, ...data.members].map((r) => r.id);
    expect(new Set(all).size).toBe(all.length);
    for (const id of all) {
      expect(id).toMatch(SALESFORCE_ID_18);
      expect(to18(id.slice(0, 15))).toBe(id);
    }
    expect(data.campaigns.every((c) => c.id.startsWith('701'))).toBe(true);
    expect(data.contacts.every((c) => c.id.startsWith('003'))).toBe(true);
    expect(data.accounts.every((a) => /^https:\/\/www\.[a-z0-9-]+\.example$/.test(a.website))).toBe(true);
    expect(data.contacts.every((c) => /^[a-z0-9.-]+@[a-z0-9-]+\.example$/.test(c.email))).toBe(true);
  });

  it('gives every account an employee count and an annual revenue in PLN that fit its size, in every band', () => {
    for (const account of data.accounts) {
      expect(Number.isInteger(account.employees) && account.employees > 0).toBe(true);
      expect(account.annual_revenue % 1_000).toBe(0);
      // Between ½ and 2 times the industry's revenue per employee (125k to 4.4M PLN a head).
      const perEmployee = account.annual_revenue / account.employees;
      expect(perEmployee).toBeGreaterThan(120_000);
      expect(perEmployee).toBeLessThan(4_500_000);
    }
    const share = (
      bands: typeof employeeBands | typeof revenueBands,
      value: (a: (typeof data.accounts)[number]) => number,
    ) => bands.map((band) => data.accounts.filter((a) => bandOf(bands, value(a)) === band.key).length);
    // Each band has accounts: mid-sized companies (50–249) are a fair share, not a handful.
    const byEmployees = share(employeeBands, (a) => a.employees);
    expect(byEmployees.every((n) => n > 100)).toBe(true);
    expect(byEmployees.reduce((a, b) => a + b)).toBe(DEMO_ACCOUNTS);
    expect(share(revenueBands, (a) => a.annual_revenue).every((n) => n > 30)).toBe(true);
  });

  it('spans two years of campaigns before the anchor day', () => {
    const dates = data.campaigns.map((c) => c.start_date).sort();
    expect(dates[0]! < '2024-12-01').toBe(true);
    expect(dates.at(-1)! > '2026-10-01').toBe(true);
    expect(new Set(data.campaigns.map((c) => c.type))).toEqual(
      new Set(['Webinar', 'Event', 'Report', 'Email', 'Content Marketing']),
    );
  });
});

describe('seeding', () => {
  it('waits for the first query: creating the adapter loads nothing', async () => {
    createEmbeddedCrm({ db: database.db });
    expect(await count('crm_seed')).toBe(0);
    expect(await count('crm_contacts')).toBe(0);
  });

  it('loads the data set once when two instances start together, and then never again', async () => {
    const results = await Promise.all([
      seedDemoCrm(database.db, { anchorDate }),
      seedDemoCrm(database.db, { anchorDate }),
    ]);
    expect(results.map((r) => r.seeded).sort()).toEqual([false, true]);
    expect(await seedDemoCrm(database.db, { anchorDate: '2030-01-01' })).toEqual({
      seeded: false,
      anchorDate,
    });
    expect(await count('crm_campaigns')).toBe(data.campaigns.length);
    expect(await count('crm_accounts')).toBe(DEMO_ACCOUNTS);
    expect(await count('crm_contacts')).toBe(DEMO_CONTACTS);
    expect(await count('crm_campaign_members')).toBe(data.members.length);
    expect(await count('crm_seed')).toBe(1);
    // Two seedings of the 10,000-contact data set at once: about 10 s on PGlite, more on a busy machine.
  }, 60_000);

  it('gives the accounts of a data set seeded before revenue (version 1) the revenue a new one has', async () => {
    const db = database.db;
    await db.execute(sql`update crm_accounts set annual_revenue = null`);
    await db.execute(sql`update crm_seed set version = 1`);
    expect(await seedDemoCrm(db, { anchorDate: '2030-01-01' })).toEqual({ seeded: false, anchorDate });
    const stored = await rowsOf<{ id: string; revenue: number }>(
      db,
      sql`select id, annual_revenue::float8 as revenue from crm_accounts order by id`,
    );
    const generated = new Map(data.accounts.map((a) => [a.id, a.annual_revenue]));
    expect(stored).toHaveLength(DEMO_ACCOUNTS);
    expect(stored.every((r) => r.revenue === generated.get(r.id))).toBe(true);
    const marker = await rowsOf<{ version: number }>(db, sql`select version from crm_seed`);
    expect(marker).toEqual([{ version: DEMO_CRM_VERSION }]);
    expect(DEMO_CRM_VERSION).toBe(2);
  });
});

describe('the embedded CRM', () => {
  const crm = () => createEmbeddedCrm({ db: database.db });

  it('lists the newest campaigns, and finds them by part of the name (any case, any accents) or id', async () => {
    const newest = await crm().listCampaigns('', 5);
    const byDate = [...data.campaigns].sort((a, b) => (a.start_date < b.start_date ? 1 : -1)).slice(0, 5);
    expect(newest.map((c) => c.id)).toEqual(byDate.map((c) => c.id));
    expect(newest[0]).toEqual({
      id: byDate[0]!.id,
      name: byDate[0]!.name,
      type: byDate[0]!.type,
      startDate: byDate[0]!.start_date,
    });

    const krakow = data.campaigns.filter((c) => c.name.includes('Kraków'));
    if (krakow.length > 0) {
      const found = await crm().listCampaigns('KRAKOW', 50);
      expect(found.map((c) => c.id).sort()).toEqual(krakow.map((c) => c.id).sort());
    }
    const ksef = await crm().listCampaigns('ksef', 50);
    expect(ksef.length).toBeGreaterThan(0);
    expect(ksef.every((c) => c.name.includes('KSeF'))).toBe(true);

    const one = data.campaigns[3]!;
    expect((await crm().listCampaigns(one.id, 10)).map((c) => c.id)).toEqual([one.id]);
    expect((await crm().listCampaigns(one.id.slice(0, 14), 50)).map((c) => c.id)).toContain(one.id);
    expect(await crm().listCampaigns('no such campaign', 10)).toEqual([]);
    expect(await crm().listCampaigns("%' or '1'='1", 10)).toEqual([]);
    expect(await crm().listCampaigns('_', 10)).toEqual([]);
  });

  it('gets a campaign by id, and null for an unknown or malformed id', async () => {
    const one = data.campaigns[0]!;
    expect(await crm().getCampaign(one.id)).toEqual({
      id: one.id,
      name: one.name,
      type: one.type,
      startDate: one.start_date,
    });
    expect(await crm().getCampaign('701000000000000AAA')).toBeNull();
    expect(await crm().getCampaign("'; drop table crm_contacts; --")).toBeNull();
    expect(
      await crm().campaignFacts('701000000000000AAA', { topValues: 5, pastCampaigns: 5, vocabularySize: 10 }),
    ).toBeNull();
  });

  it('splits a campaign’s members by each kind of value, with past campaigns of its type', async () => {
    const campaign = flagship();
    const result = (await crm().campaignFacts(campaign.id, {
      topValues: 6,
      pastCampaigns: 4,
      vocabularySize: 12,
    }))!;
    const { facts, vocabulary } = result;
    const members = data.members.filter((m) => m.campaign_id === campaign.id);
    expect(facts.campaign).toEqual({
      id: campaign.id,
      name: campaign.name,
      type: campaign.type,
      startDate: campaign.start_date,
      objective: campaign.objective,
      lineOfService: campaign.line_of_service,
    });
    expect(facts.members).toBe(FLAGSHIP_MEMBERS);
    expect(facts.responders).toBe(members.filter((m) => m.has_responded).length);

    // By work area, from the records.
    const contacts = new Map(data.contacts.map((c) => [c.id, c]));
    const byArea = new Map<string, { responders: number; nonResponders: number }>();
    for (const m of members) {
      const area = contacts.get(m.contact_id)!.work_area;
      const entry = byArea.get(area) ?? { responders: 0, nonResponders: 0 };
      if (m.has_responded) entry.responders += 1;
      else entry.nonResponders += 1;
      byArea.set(area, entry);
    }
    const expectedAreas = [...byArea.entries()]
      .map(([value, c]) => ({ value, ...c }))
      .sort(
        (a, b) =>
          b.responders + b.nonResponders - (a.responders + a.nonResponders) || (a.value < b.value ? -1 : 1),
      )
      .slice(0, 6);
    expect(facts.byWorkArea).toEqual(expectedAreas);
    // Every member has a role: the roles add up to the campaign.
    const sum = (list: { responders: number; nonResponders: number }[]) =>
      list.reduce((s, v) => s + v.responders + v.nonResponders, 0);
    expect(sum(facts.byRole)).toBe(FLAGSHIP_MEMBERS);
    for (const list of [
      facts.byIndustry,
      facts.bySubIndustry,
      facts.byTitle,
      facts.byRole,
      facts.byWorkArea,
    ]) {
      expect(list.length).toBeGreaterThan(0);
      expect(list.length).toBeLessThanOrEqual(6);
    }
    // The story: the topic's audience responds more than the rest.
    const rate = (v: { responders: number; nonResponders: number }) =>
      v.responders / (v.responders + v.nonResponders);
    expect(Math.max(...facts.byWorkArea.map(rate))).toBeGreaterThan(
      2 * Math.min(...facts.byWorkArea.map(rate)),
    );

    expect(facts.pastCampaigns.length).toBeGreaterThan(0);
    expect(facts.pastCampaigns.length).toBeLessThanOrEqual(4);
    const pastRates = facts.pastCampaigns.map((p) => p.responders / p.members);
    expect([...pastRates].sort((a, b) => b - a)).toEqual(pastRates);
    for (const past of facts.pastCampaigns) {
      const source = data.campaigns.find((c) => c.id === past.id)!;
      expect(source.type).toBe(campaign.type);
      expect(past.id).not.toBe(campaign.id);
      expect(past.members).toBe(data.members.filter((m) => m.campaign_id === past.id).length);
    }

    // The vocabulary: the CRM's values, most frequent first, and at least every value shown.
    expect(vocabulary.workAreas).toEqual(expect.arrayContaining(facts.byWorkArea.map((v) => v.value)));
    expect(vocabulary.titles).toEqual(expect.arrayContaining(facts.byTitle.map((v) => v.value)));
    expect(vocabulary.roles.slice(0, 4).sort()).toEqual(['Champion', 'Decision maker', 'Influencer', 'User']);
    const areaCounts = new Map<string, number>();
    for (const c of data.contacts) areaCounts.set(c.work_area, (areaCounts.get(c.work_area) ?? 0) + 1);
    expect(vocabulary.workAreas[0]).toBe([...areaCounts.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
    expect(vocabulary.subIndustries.length).toBeGreaterThanOrEqual(12);

    // Company size: every member's account in one band of each, in the bands' order.
    const accounts = new Map(data.accounts.map((a) => [a.id, a]));
    const bySize = (bands: typeof employeeBands | typeof revenueBands, value: (id: string) => number) =>
      bands
        .map((band) => {
          const inBand = members.filter((m) => bandOf(bands, value(m.contact_id)) === band.key);
          const responders = inBand.filter((m) => m.has_responded).length;
          return { value: band.key, responders, nonResponders: inBand.length - responders };
        })
        .filter((v) => v.responders + v.nonResponders > 0);
    const accountOf = (contactId: string) => accounts.get(contacts.get(contactId)!.account_id)!;
    expect(facts.byEmployees).toEqual(bySize(employeeBands, (id) => accountOf(id).employees));
    expect(facts.byRevenue).toEqual(bySize(revenueBands, (id) => accountOf(id).annual_revenue));
    expect(facts.byEmployees.map((v) => v.value)).toEqual(['1-49', '50-249', '250-999', '1000+']);
    expect(facts.revenueCurrency).toBe('PLN');
    expect(vocabulary.employeeBands).toEqual(['1-49', '50-249', '250-999', '1000+']);
    expect(vocabulary.revenueBands).toEqual(['0-10M', '10M-50M', '50M-250M', '250M-1B', '1B+']);
  });

  const segments: Record<string, SegmentInput> = {
    empty: { subIndustries: [], roles: [], titles: [], workAreas: [] },
    'sub-industries and a work area': {
      subIndustries: ['Banking', 'INSURANCE'],
      roles: [],
      titles: [],
      workAreas: ['Finance'],
    },
    'a role or a title': {
      subIndustries: [],
      roles: ['Decision maker'],
      titles: ['Tax Manager'],
      workAreas: [],
    },
    'everything at once': {
      subIndustries: ['Chemicals', 'Software', 'Automotive parts'],
      roles: ['Champion'],
      titles: ['CFO', 'CIO'],
      workAreas: ['Finance', 'IT', 'Tax'],
    },
    'a value nobody has': { subIndustries: ['Space mining'], roles: [], titles: [], workAreas: [] },
    'mid-sized companies (employees and revenue bands)': {
      subIndustries: [],
      roles: [],
      titles: [],
      workAreas: ['Finance'],
      employeeBands: ['50-249', '1000+'],
      revenueBands: ['10M-50M', '50M-250M', '1B+'],
    },
  };

  for (const [name, segment] of Object.entries(segments)) {
    it(`counts and lists each report for ${name}, as the segment’s meaning says`, async () => {
      const campaign = flagship();
      const pastCampaignIds = data.campaigns
        .filter((c) => c.type === campaign.type && c.id !== campaign.id)
        .slice(0, 3)
        .map((c) => c.id);
      for (const type of ['new-prospects', 'follow-up', 'past-responders'] as ReportType[]) {
        const report = { type, campaignId: campaign.id, segment, pastCampaignIds };
        const expected = expectedContacts(report);
        const reach = await crm().reach(report);
        expect(reach, type).toBe(expected.length);
        const page = (await crm().reportContacts(report, { offset: 0, limit: 25 }))!;
        expect(page.total).toBe(reach);
        expect(page.contacts.length).toBe(Math.min(25, expected.length));
        expect(page.contacts.every((c) => expected.includes(c.id))).toBe(true);
      }
    });
  }

  it('pages a report in a stable order, each contact with their last response', async () => {
    const campaign = flagship();
    const report = {
      type: 'new-prospects' as const,
      campaignId: campaign.id,
      segment: { ...segments.empty!, workAreas: ['Tax'] },
      pastCampaignIds: [],
    };
    const first = (await crm().reportContacts(report, { offset: 0, limit: 50 }))!;
    const second = (await crm().reportContacts(report, { offset: 50, limit: 50 }))!;
    const both = [...first.contacts, ...second.contacts];
    expect(new Set(both.map((c) => c.id)).size).toBe(100);
    const contacts = new Map(data.contacts.map((c) => [c.id, c]));
    // PostgreSQL's collation orders the names; the order holds from page to page.
    const again = (await crm().reportContacts(report, { offset: 0, limit: 100 }))!;
    expect(again.contacts.map((c) => c.id)).toEqual(both.map((c) => c.id));
    const lastNames = both.map((c) => contacts.get(c.id)!.last_name);
    expect(lastNames[0]! <= lastNames[99]!).toBe(true);

    const withResponse = both.find((c) => c.lastResponse !== null)!;
    const responses = data.members
      .filter((m) => m.contact_id === withResponse.id && m.has_responded)
      .sort((a, b) => (a.responded_at! < b.responded_at! ? 1 : -1));
    expect(withResponse.lastResponse).toEqual({
      campaignName: data.campaigns.find((c) => c.id === responses[0]!.campaign_id)!.name,
      respondedAt: responses[0]!.responded_at,
    });
    const source = contacts.get(withResponse.id)!;
    const account = data.accounts.find((a) => a.id === source.account_id)!;
    expect(withResponse).toMatchObject({
      name: `${source.first_name} ${source.last_name}`,
      email: source.email,
      title: source.title,
      accountId: account.id,
      account: account.name,
      industry: account.industry,
      subIndustry: account.sub_industry,
      employees: account.employees,
      annualRevenue: account.annual_revenue,
    });
    expect((await crm().reportContacts(report, { offset: 100_000, limit: 50 }))!.contacts).toEqual([]);
  });

  it('reads a whole report in pages of the size asked for, each starting where the last ended', async () => {
    const campaign = flagship();
    const report = {
      type: 'new-prospects' as const,
      campaignId: campaign.id,
      segment: { ...segments.empty!, workAreas: ['Finance', 'Tax'] },
      pastCampaignIds: [],
    };
    const expected = expectedContacts(report);
    const sizes: number[] = [];
    const ids: string[] = [];
    for await (const page of crm().reportPages(report, { pageSize: 97 })!) {
      sizes.push(page.length);
      ids.push(...page.map((c) => c.id));
    }
    expect(sizes.slice(0, -1).every((size) => size === 97)).toBe(true);
    expect(sizes).toHaveLength(Math.ceil(expected.length / 97));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...expected].sort());
    // The report page's order: the same contacts at the same places.
    const byOffset = (await crm().reportContacts(report, { offset: 90, limit: 20 }))!;
    expect(ids.slice(90, 110)).toEqual(byOffset.contacts.map((c) => c.id));

    const none = crm().reportPages(
      { ...report, segment: segments['a value nobody has']! },
      { pageSize: 10 },
    )!;
    for await (const page of none) expect.unreachable(`a page of ${page.length}`);
  });

  it('takes values that look like SQL as plain values', async () => {
    const campaign = flagship();
    const hostile = [
      "Banking') or ('1'='1",
      "x' or 1=1 --",
      "'; drop table crm_contacts; --",
      '%',
      '\\',
      'Banking"',
    ];
    const report = {
      type: 'new-prospects' as const,
      campaignId: campaign.id,
      segment: { subIndustries: hostile, roles: hostile, titles: hostile, workAreas: [] },
      pastCampaignIds: [],
    };
    expect(await crm().reach(report)).toBe(0);
    expect((await crm().reportContacts(report, { offset: 0, limit: 10 }))!.total).toBe(0);
    const badId = { ...report, segment: segments.empty!, campaignId: "' or ''='" };
    expect(await crm().reach(badId)).toBe(0);
    expect(
      await crm().reach({
        ...report,
        type: 'past-responders',
        segment: segments.empty!,
        pastCampaignIds: ["') or true --"],
      }),
    ).toBe(0);
    expect(await count('crm_contacts')).toBe(DEMO_CONTACTS);
    // The report page's URL carries each value as one parameter.
    const url = crm().reportUrl(report)!;
    const params = new URL(url, 'http://gem.local').searchParams;
    expect(url.startsWith('/tools/campaign-audience-builder/report?type=new-prospects&')).toBe(true);
    expect(params.getAll('subIndustry')).toEqual(hostile);
    expect(params.get('campaignId')).toBe(campaign.id);
  });
});

import type { SegmentInput } from '@gem/contracts/campaign-audience-builder';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/test-database';
import type { Database } from '../../../db/client';
import { rowsOf } from '../../../db/rows';
import { CrmAudienceTooLargeError, type CrmReportQuery } from '../crm';
import { SALESFORCE_ID_18, to18 } from '../salesforce-id';
import { generateDemoCrm, type DemoCrmData } from './demo-data';
import { createEmbeddedCrm } from './embedded-crm';
import { memberIdOf } from './embedded-membership';
import { seedDemoCrm } from './seed';

// Adding a report's contacts to a campaign on the embedded demo CRM, on a real database (PGlite,
// and PostgreSQL when TEST_DATABASE_URL is set), checked against a plain JavaScript reading of
// the same generated records and against the rows the database holds afterwards.

const anchorDate = '2026-11-01';
let database: Database;
let data: DemoCrmData;

beforeAll(async () => {
  database = await createTestDatabase();
  data = generateDemoCrm({ anchorDate });
  await seedDemoCrm(database.db, { anchorDate });
}, 60_000);
afterAll(async () => {
  await database?.close();
});

const crm = () => createEmbeddedCrm({ db: database.db });
const everyone: SegmentInput = { subIndustries: [], roles: [], titles: [], workAreas: [] };
const report = (
  campaignId: string,
  segment: SegmentInput,
  more: Partial<CrmReportQuery> = {},
): CrmReportQuery => ({
  type: 'new-prospects',
  campaignId,
  segment,
  pastCampaignIds: [],
  ...more,
});

/** Members of each campaign now, as the database holds them. */
const membersOf = async (campaignId: string) =>
  new Set(
    (
      await rowsOf<{ contact_id: string }>(
        database.db,
        sql`select contact_id from crm_campaign_members where campaign_id = ${campaignId}`,
      )
    ).map((r) => r.contact_id),
  );
const memberRows = async (campaignId: string) =>
  (
    await rowsOf<{ n: number; distinct_contacts: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct contact_id)::int as distinct_contacts
          from crm_campaign_members where campaign_id = ${campaignId}`,
    )
  )[0]!;

/** The contacts a report is about (its campaign's membership aside), read off the generated records. */
function audienceOf(r: CrmReportQuery): string[] {
  const accounts = new Map(data.accounts.map((a) => [a.id, a]));
  const subs = new Set(r.segment.subIndustries.map((v) => v.toLowerCase()));
  const areas = new Set(r.segment.workAreas.map((v) => v.toLowerCase()));
  const memberOf = new Map<string, DemoCrmData['members']>();
  for (const m of data.members) memberOf.set(m.contact_id, [...(memberOf.get(m.contact_id) ?? []), m]);
  return data.contacts
    .filter((c) => {
      const account = accounts.get(c.account_id)!;
      if (subs.size > 0 && !subs.has(account.sub_industry.toLowerCase())) return false;
      if (areas.size > 0 && !areas.has(c.work_area.toLowerCase())) return false;
      const memberships = memberOf.get(c.id) ?? [];
      if (r.type === 'follow-up')
        return memberships.some((m) => m.campaign_id === r.campaignId && !m.has_responded);
      if (r.type === 'past-responders')
        return memberships.some((m) => m.has_responded && r.pastCampaignIds.includes(m.campaign_id));
      return true;
    })
    .map((c) => c.id);
}

/** A campaign of the data set, by how many members it has (most first). */
const bySize = (rank: number) => {
  const sizes = new Map<string, number>();
  for (const m of data.members) sizes.set(m.campaign_id, (sizes.get(m.campaign_id) ?? 0) + 1);
  return [...data.campaigns].sort((a, b) => (sizes.get(b.id) ?? 0) - (sizes.get(a.id) ?? 0))[rank]!;
};
/** The sub-industries by how many contacts' accounts have them (most first). */
const subIndustries = () => {
  const counts = new Map<string, number>();
  const accounts = new Map(data.accounts.map((a) => [a.id, a]));
  for (const c of data.contacts) {
    const sub = accounts.get(c.account_id)!.sub_industry;
    counts.set(sub, (counts.get(sub) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([sub]) => sub);
};

describe('campaign membership on the embedded CRM', () => {
  it('counts a report’s contacts that are members of the campaign and those that are not (the dry run)', async () => {
    const target = bySize(0);
    const segment = { ...everyone, subIndustries: [subIndustries()[0]!.toUpperCase()] };
    const members = new Set(data.members.filter((m) => m.campaign_id === target.id).map((m) => m.contact_id));
    for (const r of [
      report(target.id, segment),
      report(target.id, segment, { type: 'follow-up' }),
      report(target.id, everyone, { type: 'past-responders', pastCampaignIds: [bySize(1).id, bySize(2).id] }),
      report(target.id, segment, { type: 'follow-up', campaignId: bySize(1).id }),
    ]) {
      const audience = audienceOf(r);
      const already = audience.filter((id) => members.has(id)).length;
      expect(audience.length).toBeGreaterThan(0);
      expect(await crm().campaignMembership(target.id, r)).toEqual({
        campaign: { id: target.id, name: target.name, type: target.type, startDate: target.start_date },
        total: audience.length,
        newMembers: audience.length - already,
        alreadyMembers: already,
      });
    }
    // The new prospects are the report's reach: the segment less the campaign's members.
    const prospects = report(target.id, segment);
    expect((await crm().campaignMembership(target.id, prospects))!.newMembers).toBe(
      await crm().reach(prospects),
    );
    // A follow-up's contacts are the campaign's members already.
    const followUp = (await crm().campaignMembership(
      target.id,
      report(target.id, everyone, { type: 'follow-up' }),
    ))!;
    expect([followUp.newMembers, followUp.alreadyMembers > 0]).toEqual([0, true]);
    // Past responders with no past campaign: nobody.
    expect(
      await crm().campaignMembership(target.id, report(target.id, everyone, { type: 'past-responders' })),
    ).toMatchObject({ total: 0, newMembers: 0, alreadyMembers: 0 });
  });

  it('adds the new members page by page, once each, and a second run adds nobody', async () => {
    const target = bySize(5);
    const before = await membersOf(target.id);
    // Every contact: ten pages of 1,000, some of them members already.
    const r = report(target.id, everyone);
    const preview = (await crm().campaignMembership(target.id, r))!;
    expect(preview.total).toBe(data.contacts.length);
    expect(preview.alreadyMembers).toBe(before.size);

    const first = (await crm().addCampaignMembers(target.id, r))!;
    expect(first).toEqual({
      campaign: preview.campaign,
      total: data.contacts.length,
      added: preview.newMembers,
      alreadyMembers: before.size,
      failed: [],
    });
    expect(await memberRows(target.id)).toEqual({
      n: data.contacts.length,
      distinct_contacts: data.contacts.length,
    });
    // New members are Sent, not responded, with Salesforce-style ids of their own.
    const added = await rowsOf<{ id: string; contact_id: string; status: string; has_responded: boolean }>(
      database.db,
      sql`select id, contact_id, status, has_responded from crm_campaign_members
          where campaign_id = ${target.id} and id like '00v7R%' order by contact_id limit 3`,
    );
    expect(added).toHaveLength(3);
    for (const row of added) {
      expect(row).toMatchObject({ status: 'Sent', has_responded: false });
      expect(row.id).toMatch(SALESFORCE_ID_18);
      expect(to18(row.id.slice(0, 15))).toBe(row.id);
      expect(row.id).toBe(memberIdOf(target.id, row.contact_id));
    }
    // The members the report pages and the campaign's facts read.
    expect(await crm().reach(r)).toBe(0);
    expect(
      (await crm().campaignFacts(target.id, { topValues: 5, pastCampaigns: 0, vocabularySize: 5 }))!.facts
        .members,
    ).toBe(data.contacts.length);

    const again = (await crm().addCampaignMembers(target.id, r))!;
    expect(again).toMatchObject({
      total: data.contacts.length,
      added: 0,
      alreadyMembers: data.contacts.length,
      failed: [],
    });
    expect(await crm().campaignMembership(target.id, r)).toMatchObject({ newMembers: 0 });
  });

  it('adds each contact once when two runs add the same segment at the same time', async () => {
    const target = bySize(6);
    const r = report(target.id, { ...everyone, subIndustries: subIndustries().slice(0, 3) });
    const preview = (await crm().campaignMembership(target.id, r))!;
    expect(preview.total).toBeGreaterThan(1_000);
    const [a, b] = await Promise.all([
      crm().addCampaignMembers(target.id, r),
      crm().addCampaignMembers(target.id, r),
    ]);
    expect(a!.added + b!.added).toBe(preview.newMembers);
    for (const run of [a!, b!]) {
      expect(run.total).toBe(preview.total);
      expect(run.added + run.alreadyMembers).toBe(preview.total);
      expect(run.failed).toEqual([]);
    }
    const rows = await memberRows(target.id);
    expect(rows.n).toBe(rows.distinct_contacts);
  });

  it('lists the contacts the database refuses with its words, adds the rest, and adds them on a retry', async () => {
    const target = bySize(7);
    const r = report(target.id, everyone);
    const members = await membersOf(target.id);
    // Three new members the database will refuse, in different pages.
    const refused = data.contacts
      .map((c) => c.id)
      .filter((id) => !members.has(id))
      .sort()
      .filter((_, i) => i === 10 || i === 1_500 || i === 4_321);
    await database.db.execute(
      sql.raw(`create function gem_test_refuse_member() returns trigger language plpgsql as $$
        begin
          if new.contact_id in (${refused.map((id) => `'${id}'`).join(', ')}) then
            raise exception 'Contact % has opted out of campaigns', new.contact_id;
          end if;
          return new;
        end $$`),
    );
    await database.db.execute(
      sql.raw(`create trigger gem_test_refuse_member before insert on crm_campaign_members
        for each row execute function gem_test_refuse_member()`),
    );
    let first;
    try {
      first = (await crm().addCampaignMembers(target.id, r))!;
    } finally {
      await database.db.execute(sql.raw('drop trigger gem_test_refuse_member on crm_campaign_members'));
      await database.db.execute(sql.raw('drop function gem_test_refuse_member()'));
    }
    const contacts = new Map(data.contacts.map((c) => [c.id, c]));
    expect(first.failed.map((f) => f.contactId).sort()).toEqual(refused);
    for (const failure of first.failed) {
      const contact = contacts.get(failure.contactId)!;
      expect(failure).toEqual({
        contactId: contact.id,
        name: `${contact.first_name} ${contact.last_name}`,
        code: 'P0001',
        reason: `Contact ${contact.id} has opted out of campaigns`,
      });
    }
    expect(first.added).toBe(data.contacts.length - members.size - refused.length);
    expect(first.total).toBe(data.contacts.length);
    expect((await membersOf(target.id)).size).toBe(data.contacts.length - refused.length);

    const retry = (await crm().addCampaignMembers(target.id, r))!;
    expect(retry).toMatchObject({
      added: refused.length,
      alreadyMembers: data.contacts.length - refused.length,
      failed: [],
    });
    expect((await membersOf(target.id)).size).toBe(data.contacts.length);
  });

  it('refuses a report past the limit before adding anyone', async () => {
    const target = bySize(8);
    const r = report(target.id, everyone);
    const before = await memberRows(target.id);
    const tooLarge = crm().addCampaignMembers(target.id, r, { maxContacts: 2_000 });
    await expect(tooLarge).rejects.toBeInstanceOf(CrmAudienceTooLargeError);
    await expect(tooLarge).rejects.toMatchObject({
      limit: 2_000,
      total: data.contacts.length,
      message:
        'The segment holds 10,000 contacts; at most 2,000 can be added to a campaign at once. Narrow the segment and try again.',
    });
    await expect(crm().campaignMembership(target.id, r, { maxContacts: 2_000 })).rejects.toBeInstanceOf(
      CrmAudienceTooLargeError,
    );
    // A larger limit than the port's own is the port's own.
    expect((await crm().campaignMembership(target.id, r, { maxContacts: 10_000_000 }))!.total).toBe(
      data.contacts.length,
    );
    expect(await memberRows(target.id)).toEqual(before);
  });

  it('answers null for an unknown or malformed campaign id, and adds nobody', async () => {
    const unknown = to18('701ZZ0000000000');
    const r = report(bySize(0).id, everyone);
    const total = (await memberRows(unknown)).n;
    expect(await crm().campaignMembership(unknown, r)).toBeNull();
    expect(await crm().addCampaignMembers(unknown, r)).toBeNull();
    expect(await crm().addCampaignMembers("701' or '1'='1", r)).toBeNull();
    expect((await memberRows(unknown)).n).toBe(total);
  });
});

import type { SegmentInput } from '@gem/contracts/campaign-audience-builder';
import {
  keyPrefixes,
  parseCsv,
  salesforceId,
  startSalesforceServer,
  type SalesforceData,
  type SalesforceServer,
} from '@gem/test-servers/salesforce-server';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { crmMappingSchema } from '../../../config/crm';
import { CrmAudienceTooLargeError, CrmError, type Crm, type CrmReportQuery } from '../crm';
import { createSalesforceCrm } from './salesforce-crm';
import { bulkError } from './salesforce-membership';

// Adding a report's people to a campaign in Salesforce, against the local org
// (test-servers/salesforce-server): the real jsforce client, SOQL for the people and the
// campaign's members, sObject Collections up to 500 new members, a Bulk API 2.0 job past them,
// and the org's own answers (DUPLICATE_VALUE, a validation rule's error, an outage).

const targetId = salesforceId(keyPrefixes.Campaign, 1);
const followedId = salesforceId(keyPrefixes.Campaign, 2);
const pastId = salesforceId(keyPrefixes.Campaign, 3);
const accounts = [
  { Id: salesforceId(keyPrefixes.Account, 1), Name: 'Wisła Bank S.A.', Sub_Industry__c: 'Banking' },
  { Id: salesforceId(keyPrefixes.Account, 2), Name: 'Odra Chem Sp. z o.o.', Sub_Industry__c: 'Chemicals' },
];
const titles = ['CFO', 'Head of Tax', 'CIO', 'Controller'];
const contacts = Array.from({ length: 2_000 }, (_, i) => ({
  Id: salesforceId(keyPrefixes.Contact, i + 1),
  FirstName: 'Anna',
  LastName: `Nowak ${i + 1}`,
  Title: titles[i % 4]!,
  Department: i % 3 === 0 ? 'Tax' : 'Finance',
  AccountId: accounts[i % 2]!.Id,
}));
const leads = [
  {
    Id: salesforceId(keyPrefixes.Lead, 1),
    LastName: "O'Brien",
    Company: 'Acme',
    Title: 'CFO',
    IsConverted: false,
  },
  {
    Id: salesforceId(keyPrefixes.Lead, 2),
    LastName: 'Kowal',
    Company: 'Beta',
    Title: 'CFO',
    IsConverted: true,
  },
];
/** Contacts 0–99 are the target campaign's members; 0–299 the followed campaign's (every other one responded); 200–499 responded to the past one. */
const targetMembers = 100;

function orgData(): SalesforceData {
  let n = 0;
  const member = (campaignId: string, contactId: string, responded = false) => ({
    Id: salesforceId(keyPrefixes.CampaignMember, (n += 1)),
    CampaignId: campaignId,
    ContactId: contactId,
    LeadId: null,
    Status: responded ? 'Responded' : 'Sent',
    HasResponded: responded,
  });
  return {
    Account: accounts,
    Contact: contacts,
    Lead: leads,
    Campaign: [
      { Id: targetId, Name: 'ESG webinar Q3', Type: 'Webinar', StartDate: '2026-09-01' },
      { Id: followedId, Name: 'Tax update', Type: 'Webinar', StartDate: '2026-05-01' },
      { Id: pastId, Name: "CFO's breakfast", Type: 'Event', StartDate: '2025-03-01' },
    ],
    CampaignMember: [
      ...contacts.slice(0, targetMembers).map((c) => member(targetId, c.Id)),
      ...contacts.slice(0, 300).map((c, i) => member(followedId, c.Id, i % 2 === 0)),
      ...contacts.slice(200, 500).map((c) => member(pastId, c.Id, true)),
    ],
  };
}

const mapping = crmMappingSchema.parse({
  contact: { subIndustry: 'Account.Sub_Industry__c', title: 'Title', workArea: 'Department' },
});
const silent = { warn: () => undefined, debug: () => undefined };
const everyone: SegmentInput = { subIndustries: [], roles: [], titles: [], workAreas: [] };
const report = (segment: SegmentInput, more: Partial<CrmReportQuery> = {}): CrmReportQuery => ({
  type: 'new-prospects',
  campaignId: targetId,
  segment,
  pastCampaignIds: [],
  ...more,
});
/** Contacts in the segment (by index), as the org holds them. */
const contactsWhere = (keep: (c: (typeof contacts)[number], i: number) => boolean) =>
  contacts.filter((c, i) => keep(c, i)).map((c) => c.Id);

describe.runIf(inject('dbKind') === 'pglite')('campaign membership in Salesforce', () => {
  let sf: SalesforceServer;
  let crm: Crm;

  beforeAll(async () => {
    sf = await startSalesforceServer({ data: orgData() });
  });
  afterAll(() => sf.close());
  beforeEach(() => {
    sf.setData(orgData());
    sf.reset();
    crm = createSalesforceCrm(
      {
        loginUrl: sf.url,
        clientId: sf.clientId,
        apiVersion: '65.0',
        auth: { flow: 'client-credentials', clientSecret: sf.clientSecret },
        mapping,
      },
      { log: silent, timeoutMs: 5_000, bulkPollMs: 1 },
    );
  });

  const targetMembersNow = () =>
    new Set(
      sf
        .records('CampaignMember')
        .filter((m) => m.CampaignId === targetId)
        .map((m) => String(m.ContactId ?? m.LeadId)),
    );
  const writes = () =>
    sf.requests
      .filter((r) => r.method !== 'GET' && r.path.startsWith('/services/data/'))
      .map((r) => `${r.method} ${r.path.replace(/^\/services\/data\/v65\.0/, '')}`);
  const collectionSizes = () =>
    sf.requests
      .filter((r) => r.path.endsWith('/composite/sobjects'))
      .map((r) => (JSON.parse(r.body!) as { records: unknown[] }).records.length);

  it('counts the report’s people that are members already and those that are not (the dry run)', async () => {
    const campaign = { id: targetId, name: 'ESG webinar Q3', type: 'Webinar', startDate: '2026-09-01' };
    // New prospects: the segment (contacts, and the unconverted lead with the title).
    const cfos = contactsWhere((c) => c.Title === 'CFO');
    expect(await crm.campaignMembership(targetId, report({ ...everyone, titles: ['cfo'] }))).toEqual({
      campaign,
      total: cfos.length + 1,
      newMembers: cfos.length + 1 - targetMembers / 4,
      alreadyMembers: targetMembers / 4,
    });
    // A sub-industry only contacts have: no lead.
    const banking = contactsWhere((_, i) => i % 2 === 0);
    expect(
      await crm.campaignMembership(targetId, report({ ...everyone, subIndustries: ['Banking'] })),
    ).toMatchObject({
      total: banking.length,
      alreadyMembers: targetMembers / 2,
    });
    // Follow-up: the followed campaign's members who did not respond (odd ones of 0–299).
    expect(
      await crm.campaignMembership(targetId, report(everyone, { type: 'follow-up', campaignId: followedId })),
    ).toMatchObject({ total: 150, newMembers: 100, alreadyMembers: 50 });
    // Past responders: 200–499.
    expect(
      await crm.campaignMembership(
        targetId,
        report(everyone, { type: 'past-responders', pastCampaignIds: [pastId] }),
      ),
    ).toMatchObject({ total: 300, newMembers: 300, alreadyMembers: 0 });
    // The dry run writes nothing.
    expect(writes()).toEqual([]);
  });

  it('adds up to 200 new members in one sObject Collections request, and a second run sends nothing', async () => {
    // Follow-up: 150 people, 50 of them members already.
    const r = report(everyone, { type: 'follow-up', campaignId: followedId });
    const result = (await crm.addCampaignMembers(targetId, r))!;
    expect(result).toMatchObject({ total: 150, added: 100, alreadyMembers: 50, failed: [] });
    expect(collectionSizes()).toEqual([100]);
    expect(writes()).toEqual(['POST /composite/sobjects']);
    const body = JSON.parse(sf.requests.find((q) => q.body)!.body!) as {
      allOrNone: boolean;
      records: unknown[];
    };
    expect(body.allOrNone).toBe(false);
    expect(body.records[0]).toEqual({
      attributes: { type: 'CampaignMember' },
      CampaignId: targetId,
      ContactId: contacts[101]!.Id,
    });
    expect(targetMembersNow().size).toBe(targetMembers + 100);

    sf.reset();
    expect(await crm.addCampaignMembers(targetId, r)).toMatchObject({
      added: 0,
      alreadyMembers: 150,
      failed: [],
    });
    expect(writes()).toEqual([]);
  });

  it('sends 201 new members as 200 + 1, leads by LeadId, and reads members by IN lists when the campaign has more', async () => {
    // CFOs: 500 contacts (25 members) and the unconverted lead; 476 new, under the bulk threshold.
    const r = report({ ...everyone, titles: ['CFO'], workAreas: [] });
    // Make 275 of them members first, so 201 are new.
    const first = contactsWhere((c) => c.Title === 'CFO').slice(targetMembers / 4, targetMembers / 4 + 275);
    sf.setData({
      ...orgData(),
      CampaignMember: [
        ...orgData().CampaignMember!,
        ...first.map((id, i) => ({
          Id: salesforceId(keyPrefixes.CampaignMember, 9_000 + i),
          CampaignId: targetId,
          ContactId: id,
          Status: 'Sent',
          HasResponded: false,
        })),
      ],
    });
    const result = (await crm.addCampaignMembers(targetId, r))!;
    expect(result).toMatchObject({ total: 501, added: 201, alreadyMembers: 300, failed: [] });
    expect(collectionSizes()).toEqual([200, 1]);
    expect(targetMembersNow().has(leads[0]!.Id)).toBe(true);
    expect(targetMembersNow().has(leads[1]!.Id)).toBe(false);
    // The campaign had fewer members (375) than the report people (501): read whole, no IN list.
    expect(sf.requests.some((q) => q.soql?.includes('ContactId IN ('))).toBe(false);

    // A smaller segment than the campaign (576 members now): its people looked up by IN lists.
    sf.reset();
    const small = report({ ...everyone, titles: ['CIO'] });
    expect(await crm.campaignMembership(targetId, small)).toMatchObject({
      total: 500,
      alreadyMembers: targetMembers / 4,
    });
    const inLists = sf.requests.filter((q) => q.soql?.includes('ContactId IN ('));
    expect(inLists).toHaveLength(3);
    // The campaign's id, then the ids.
    expect(inLists.map((q) => q.literals!.length)).toEqual([201, 201, 101]);
  });

  it('adds past 500 new members with one Bulk API 2.0 job, and a second run adds nobody', async () => {
    const r = report(everyone);
    const preview = (await crm.campaignMembership(targetId, r))!;
    expect(preview).toMatchObject({ total: 2_001, newMembers: 1_901, alreadyMembers: targetMembers });
    sf.reset();
    const result = (await crm.addCampaignMembers(targetId, r))!;
    expect(result).toMatchObject({ total: 2_001, added: 1_901, alreadyMembers: targetMembers, failed: [] });
    const job = sf.requests.find((q) => q.method === 'POST' && q.path.endsWith('/jobs/ingest'))!;
    expect(JSON.parse(job.body!)).toMatchObject({ object: 'CampaignMember', operation: 'insert' });
    expect(writes()).toEqual([
      'POST /jobs/ingest',
      expect.stringMatching(/^PUT \/jobs\/ingest\/750\w+\/batches$/),
      expect.stringMatching(/^PATCH \/jobs\/ingest\/750\w+$/),
    ]);
    // Polled until complete: InProgress, then JobComplete.
    expect(
      sf.requests.filter((q) => q.method === 'GET' && /\/jobs\/ingest\/750\w+$/.test(q.path)),
    ).toHaveLength(2);
    const csv = parseCsv(sf.requests.find((q) => q.method === 'PUT')!.body!);
    expect(csv[0]).toEqual(['CampaignId', 'ContactId', 'LeadId']);
    expect(csv).toHaveLength(1 + 1_901);
    expect(csv.find((row) => row[2] === leads[0]!.Id)).toEqual([targetId, '', leads[0]!.Id]);
    expect(targetMembersNow().size).toBe(2_001);
    expect(collectionSizes()).toEqual([]);

    sf.reset();
    expect(await crm.addCampaignMembers(targetId, r)).toMatchObject({
      added: 0,
      alreadyMembers: 2_001,
      failed: [],
    });
    expect(writes()).toEqual([]);
  });

  it('lists the rows the org refuses with its words, counts DUPLICATE_VALUE as a member, and adds them on a retry', async () => {
    const rules = (refused: string, raced: string) =>
      sf.rejectRecords([
        { when: (m) => m.ContactId === refused, message: 'This contact opted out of campaigns.' },
        // As Salesforce answers a contact made a member by someone else between the read and the write.
        {
          when: (m) => m.ContactId === raced,
          statusCode: 'DUPLICATE_VALUE',
          message: 'Already a campaign member.',
        },
      ]);
    // sObject Collections: the past campaign's 300 responders, none of them members.
    rules(contacts[250]!.Id, contacts[260]!.Id);
    const small = report(everyone, { type: 'past-responders', pastCampaignIds: [pastId] });
    const viaCollections = (await crm.addCampaignMembers(targetId, small))!;
    expect(viaCollections).toEqual({
      campaign: expect.objectContaining({ id: targetId }),
      total: 300,
      added: 298,
      alreadyMembers: 1,
      failed: [
        {
          contactId: contacts[250]!.Id,
          name: 'Anna Nowak 251',
          code: 'FIELD_CUSTOM_VALIDATION_EXCEPTION',
          reason: 'This contact opted out of campaigns.',
        },
      ],
    });
    expect(collectionSizes()).toEqual([200, 100]);

    // A Bulk API 2.0 job: everyone (2,001 people, 398 of them members now); the rows refused
    // before go in now, two others are refused.
    rules(contacts[1_500]!.Id, contacts[1_600]!.Id);
    const everybody = report(everyone);
    const viaBulk = (await crm.addCampaignMembers(targetId, everybody))!;
    expect(viaBulk.failed).toEqual([
      {
        contactId: contacts[1_500]!.Id,
        name: 'Anna Nowak 1501',
        code: 'FIELD_CUSTOM_VALIDATION_EXCEPTION',
        reason: 'This contact opted out of campaigns.',
      },
    ]);
    expect(viaBulk).toMatchObject({ total: 2_001, added: 2_001 - 398 - 2, alreadyMembers: 398 + 1 });

    // The retry adds exactly the ones not added (the duplicate was only said to be a member).
    sf.rejectRecords([]);
    sf.reset();
    expect(await crm.addCampaignMembers(targetId, everybody)).toMatchObject({
      total: 2_001,
      added: 2,
      alreadyMembers: 1_999,
      failed: [],
    });
    expect(collectionSizes()).toEqual([2]);
    expect(targetMembersNow().size).toBe(2_001);
  });

  it('adds each person once when two runs add the same report at the same time', async () => {
    const r = report(everyone, { type: 'past-responders', pastCampaignIds: [pastId] });
    const [a, b] = await Promise.all([
      crm.addCampaignMembers(targetId, r),
      crm.addCampaignMembers(targetId, r),
    ]);
    expect(a!.added + b!.added).toBe(300);
    for (const run of [a!, b!])
      expect(run).toMatchObject({ total: 300, added: 300 - run.alreadyMembers, failed: [] });
    const rows = sf.records('CampaignMember').filter((m) => m.CampaignId === targetId);
    expect(rows).toHaveLength(targetMembers + 300);
    expect(targetMembersNow().size).toBe(targetMembers + 300);
  });

  it('lists every row of a request that fails, adds nothing twice on the retry', async () => {
    sf.fail({ kind: 'error', status: 503, path: '/composite/sobjects' });
    const r = report(everyone, { type: 'past-responders', pastCampaignIds: [pastId] });
    const failed = (await crm.addCampaignMembers(targetId, r))!;
    expect(failed).toMatchObject({ total: 300, added: 0, alreadyMembers: 0 });
    expect(failed.failed).toHaveLength(300);
    expect(failed.failed[0]).toEqual({
      contactId: contacts[200]!.Id,
      name: 'Anna Nowak 201',
      code: 'unavailable',
      reason: 'The CRM did not answer the request that carried this contact. Add the segment again to retry.',
    });
    // One request tried; the rest were not sent.
    expect(collectionSizes()).toEqual([200]);
    expect(await crm.addCampaignMembers(targetId, r)).toMatchObject({ added: 300, failed: [] });

    // A bulk job whose upload fails: every row listed, none created; the retry adds them.
    sf.fail({ kind: 'error', status: 500, path: '/batches' });
    const everybody = report(everyone);
    const bulk = (await crm.addCampaignMembers(targetId, everybody))!;
    expect(bulk).toMatchObject({ total: 2_001, added: 0, alreadyMembers: 400 });
    expect(bulk.failed).toHaveLength(1_601);
    expect(new Set(bulk.failed.map((f) => f.code))).toEqual(new Set(['unavailable']));
    expect(await crm.addCampaignMembers(targetId, everybody)).toMatchObject({
      added: 1_601,
      alreadyMembers: 400,
      failed: [],
    });
    expect(targetMembersNow().size).toBe(2_001);
  });

  it('refuses a report past the limit before writing, and answers null for an unknown campaign', async () => {
    const tooLarge = crm.addCampaignMembers(targetId, report(everyone), { maxContacts: 1_000 });
    await expect(tooLarge).rejects.toBeInstanceOf(CrmAudienceTooLargeError);
    await expect(tooLarge).rejects.toMatchObject({ limit: 1_000, total: 2_001 });
    // Past responders are counted as they are read: refused once past the limit, the total unknown.
    await expect(
      crm.campaignMembership(
        targetId,
        report(everyone, { type: 'past-responders', pastCampaignIds: [pastId] }),
        {
          maxContacts: 100,
        },
      ),
    ).rejects.toMatchObject({ limit: 100, total: null });
    expect(writes()).toEqual([]);

    expect(await crm.campaignMembership(salesforceId(keyPrefixes.Campaign, 99), report(everyone))).toBeNull();
    expect(await crm.addCampaignMembers(salesforceId(keyPrefixes.Campaign, 99), report(everyone))).toBeNull();
    const before = sf.requests.length;
    expect(await crm.addCampaignMembers(`${targetId}' OR Id != '`, report(everyone))).toBeNull();
    expect(sf.requests.length).toBe(before);
    expect(writes()).toEqual([]);
  });

  it('throws a CrmError when the people cannot be read, and writes nothing', async () => {
    sf.fail({ kind: 'error', status: 503 });
    await expect(crm.addCampaignMembers(targetId, report(everyone))).rejects.toBeInstanceOf(CrmError);
    expect(writes()).toEqual([]);
  });
});

describe('a bulk job’s row error', () => {
  it('reads as its code and message', () => {
    expect(bulkError('DUPLICATE_VALUE:Already a campaign member.:--')).toEqual({
      code: 'DUPLICATE_VALUE',
      message: 'Already a campaign member.',
    });
    expect(bulkError('FIELD_CUSTOM_VALIDATION_EXCEPTION:Time: 10:30 is too late:Status')).toEqual({
      code: 'FIELD_CUSTOM_VALIDATION_EXCEPTION',
      message: 'Time: 10:30 is too late',
    });
    expect(bulkError('odd')).toEqual({ code: 'UNKNOWN_EXCEPTION', message: 'odd' });
  });
});

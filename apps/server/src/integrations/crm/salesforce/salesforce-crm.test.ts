import { generateKeyPairSync } from 'node:crypto';
import {
  keyPrefixes,
  salesforceId,
  startSalesforceServer,
  type SalesforceData,
  type SalesforceServer,
} from '@gem/test-servers/salesforce-server';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { crmMappingSchema, type SalesforceConfig } from '../../../config/crm';
import { CrmError, type Crm, type CrmReportQuery } from '../crm';
import { createSalesforceCrm } from './salesforce-crm';

// The Salesforce adapter against the local Salesforce org (test-servers/salesforce-server):
// the real jsforce client, the real token endpoint, SOQL, paging and error bodies.

const campaignId = salesforceId(keyPrefixes.Campaign, 1);
const pastId = salesforceId(keyPrefixes.Campaign, 2);
const otherPastId = salesforceId(keyPrefixes.Campaign, 3);
const futureId = salesforceId(keyPrefixes.Campaign, 4);
const accounts = [
  {
    Id: salesforceId(keyPrefixes.Account, 1),
    Name: 'Wisła Bank S.A.',
    Industry: 'Financial Services',
    Sub_Industry__c: 'Banking',
    NumberOfEmployees: 180,
    AnnualRevenue: 42_000_000,
  },
  {
    Id: salesforceId(keyPrefixes.Account, 2),
    Name: 'Odra Chem Sp. z o.o.',
    Industry: 'Manufacturing',
    Sub_Industry__c: 'Chemicals',
    NumberOfEmployees: 1_200,
    AnnualRevenue: 310_000_000,
  },
];
const titles = ['CFO', 'Head of Tax', "Director's Assistant", 'CIO'];
const members = 2_500;
const contacts = Array.from({ length: 3_000 }, (_, i) => ({
  Id: salesforceId(keyPrefixes.Contact, i + 1),
  FirstName: 'Anna',
  LastName: `Nowak ${i + 1}`,
  Title: titles[i % 4]!,
  Department: i % 3 === 0 ? 'Tax' : 'Finance',
  Role__c: i % 5 === 0 ? 'Decision maker' : 'Influencer',
  AccountId: accounts[i % 2]!.Id,
}));
const lead = {
  Id: salesforceId(keyPrefixes.Lead, 1),
  LastName: "O'Brien",
  Company: 'Acme',
  Title: 'CFO',
  Industry: 'Retail',
  NumberOfEmployees: 30,
  AnnualRevenue: 4_500_000,
  IsConverted: false,
};
const responded = (i: number) => i % 3 === 0;

function orgData(): SalesforceData {
  return {
    Account: accounts,
    Contact: contacts,
    Lead: [lead],
    Campaign: [
      {
        Id: campaignId,
        Name: 'ESG webinar Q3',
        Type: 'Webinar',
        StartDate: '2026-09-01',
        Description: 'Grow ESG advisory',
        Line_of_Service__c: 'Consulting',
      },
      {
        Id: pastId,
        Name: "CFO's breakfast",
        Type: 'Webinar',
        StartDate: '2025-03-01',
        Description: 'Meet CFOs',
        Line_of_Service__c: 'Audit',
        NumberOfContacts: 100,
        NumberOfLeads: 0,
        NumberOfResponses: 10,
      },
      {
        Id: otherPastId,
        Name: 'Tax update',
        Type: 'Webinar',
        StartDate: '2025-06-01',
        Description: null,
        Line_of_Service__c: 'Tax',
        NumberOfContacts: 50,
        NumberOfLeads: 0,
        NumberOfResponses: 25,
      },
      {
        Id: futureId,
        Name: 'Next webinar',
        Type: 'Webinar',
        StartDate: '2099-01-01',
        NumberOfContacts: 0,
        NumberOfLeads: 0,
        NumberOfResponses: 0,
      },
    ],
    CampaignMember: [
      ...contacts.slice(0, members).map((c, i) => ({
        Id: salesforceId(keyPrefixes.CampaignMember, i + 1),
        CampaignId: campaignId,
        ContactId: c.Id,
        LeadId: null,
        Status: responded(i) ? 'Responded' : 'Sent',
        HasResponded: responded(i),
      })),
      {
        Id: salesforceId(keyPrefixes.CampaignMember, members + 1),
        CampaignId: campaignId,
        ContactId: null,
        LeadId: lead.Id,
        Status: 'Sent',
        HasResponded: false,
      },
      // Past responders: contacts 2,400–2,999 responded to the past campaign (2,400–2,499 are members now).
      ...contacts.slice(2_400).map((c, i) => ({
        Id: salesforceId(keyPrefixes.CampaignMember, members + 2 + i),
        CampaignId: pastId,
        ContactId: c.Id,
        LeadId: null,
        Status: 'Responded',
        HasResponded: true,
      })),
    ],
  };
}

const mapping = crmMappingSchema.parse({
  contact: {
    industry: 'Account.Industry',
    subIndustry: 'Account.Sub_Industry__c',
    title: 'Title',
    role: 'Role__c',
    workArea: 'Department',
  },
  campaign: { objective: 'Description', lineOfService: 'Line_of_Service__c' },
  revenueCurrency: 'PLN',
  reports: {
    'new-prospects': { reportId: '00O5g000004AbCdEAK', filters: ['subIndustries', 'titles'] },
    'follow-up': { reportId: '00O5g000004AbCeEAK', filters: ['campaignId', 'workAreas'] },
  },
});

const silent = { warn: () => undefined, debug: () => undefined };
const facts = { topValues: 10, pastCampaigns: 5, vocabularySize: 30 };

describe.runIf(inject('dbKind') === 'pglite')('the Salesforce CRM adapter', () => {
  let sf: SalesforceServer;
  let crm: Crm;
  const configOf = (overrides: Partial<SalesforceConfig> = {}): SalesforceConfig => ({
    loginUrl: sf.url,
    clientId: sf.clientId,
    apiVersion: '65.0',
    auth: { flow: 'client-credentials', clientSecret: sf.clientSecret },
    mapping,
    ...overrides,
  });
  const soqls = () => sf.requests.filter((r) => r.soql).map((r) => r.soql!);

  beforeAll(async () => {
    sf = await startSalesforceServer({ data: orgData() });
  });
  afterAll(() => sf.close());
  beforeEach(() => {
    sf.reset();
    crm = createSalesforceCrm(configOf(), { log: silent, timeoutMs: 5_000 });
  });

  it('signs in with client credentials and reads a campaign’s facts, paging past 2,000 members', async () => {
    const result = (await crm.campaignFacts(campaignId, facts))!;
    const token = sf.requests.find((r) => r.path === '/services/oauth2/token')!;
    expect(token.form).toMatchObject({ grant_type: 'client_credentials', client_id: sf.clientId });
    // The members' query came in two pages (2,000 + 501).
    expect(sf.requests.filter((r) => /\/query\/01g/.test(r.path))).toHaveLength(1);

    const { facts: f } = result;
    expect(f.campaign).toEqual({
      id: campaignId,
      name: 'ESG webinar Q3',
      type: 'Webinar',
      startDate: '2026-09-01',
      objective: 'Grow ESG advisory',
      lineOfService: 'Consulting',
    });
    expect(f.members).toBe(members + 1);
    const contactResponders = contacts.slice(0, members).filter((_, i) => responded(i)).length;
    expect(f.responders).toBe(contactResponders);
    expect(f.bySubIndustry).toEqual([
      { value: 'Banking', responders: expect.any(Number), nonResponders: expect.any(Number) },
      { value: 'Chemicals', responders: expect.any(Number), nonResponders: expect.any(Number) },
    ]);
    expect(f.bySubIndustry.reduce((s, v) => s + v.responders + v.nonResponders, 0)).toBe(members);
    // The lead counts under its own Title and Industry.
    expect(f.byTitle.find((v) => v.value === 'CFO')).toEqual({
      value: 'CFO',
      responders: contacts.slice(0, members).filter((c, i) => c.Title === 'CFO' && responded(i)).length,
      nonResponders:
        contacts.slice(0, members).filter((c, i) => c.Title === 'CFO' && !responded(i)).length + 1,
    });
    expect(f.byIndustry.map((v) => v.value)).toContain('Retail');
    expect(f.byRole.map((v) => v.value)).toEqual(['Influencer', 'Decision maker']);
    expect(f.byWorkArea.map((v) => v.value)).toEqual(['Finance', 'Tax']);
    // Past campaigns of the type that have started, best response rate first.
    expect(f.pastCampaigns).toEqual([
      {
        id: otherPastId,
        name: 'Tax update',
        startDate: '2025-06-01',
        objective: null,
        lineOfService: 'Tax',
        members: 50,
        responders: 25,
      },
      {
        id: pastId,
        name: "CFO's breakfast",
        startDate: '2025-03-01',
        objective: 'Meet CFOs',
        lineOfService: 'Audit',
        members: 100,
        responders: 10,
      },
    ]);
    expect(result.vocabulary.titles).toEqual(expect.arrayContaining(titles));
    expect(result.vocabulary.subIndustries).toEqual(['Banking', 'Chemicals']);
  });

  it('lists campaigns newest first, by part of the name or by id', async () => {
    expect((await crm.listCampaigns('', 10)).map((c) => c.id)).toEqual([
      futureId,
      campaignId,
      otherPastId,
      pastId,
    ]);
    expect(await crm.listCampaigns("cfo's", 10)).toEqual([
      { id: pastId, name: "CFO's breakfast", type: 'Webinar', startDate: '2025-03-01' },
    ]);
    expect((await crm.listCampaigns(campaignId, 10)).map((c) => c.id)).toEqual([campaignId]);
    expect(await crm.listCampaigns('100%_', 10)).toEqual([]);
    expect(sf.requests.at(-1)!.literals).toEqual(['%100\\%\\_%'.replace(/\\/g, '')]);
  });

  it('answers null for an unknown campaign, and sends nothing for a malformed id', async () => {
    expect(await crm.getCampaign(salesforceId(keyPrefixes.Campaign, 99))).toBeNull();
    expect(await crm.campaignFacts(salesforceId(keyPrefixes.Campaign, 99), facts)).toBeNull();
    const before = sf.requests.length;
    expect(await crm.getCampaign(`${campaignId}' OR Id != '`)).toBeNull();
    expect(await crm.campaignFacts("x' OR Name != '", facts)).toBeNull();
    expect(
      await crm.reach({ type: 'follow-up', campaignId: "' OR ''='", segment: empty, pastCampaignIds: [] }),
    ).toBe(0);
    expect(sf.requests.length).toBe(before);
  });

  const empty = { subIndustries: [], roles: [], titles: [], workAreas: [] };
  const segment = {
    subIndustries: ['Banking'],
    roles: ['Decision maker'],
    titles: ['CFO'],
    workAreas: ['Finance', 'Tax'],
  };
  const inSegment = (c: (typeof contacts)[number]) =>
    accounts.find((a) => a.Id === c.AccountId)!.Sub_Industry__c === 'Banking' &&
    (c.Role__c === 'Decision maker' || c.Title === 'CFO');

  it('counts each report type with COUNT() queries and the members’ ids', async () => {
    const report = (type: CrmReportQuery['type']): CrmReportQuery => ({
      type,
      campaignId,
      segment,
      pastCampaignIds: [pastId],
    });
    const memberContacts = contacts.slice(0, members);
    expect(await crm.reach(report('follow-up'))).toBe(
      memberContacts.filter((c, i) => inSegment(c) && !responded(i)).length,
    );
    expect(await crm.reach(report('new-prospects'))).toBe(contacts.slice(members).filter(inSegment).length);
    expect(await crm.reach(report('past-responders'))).toBe(contacts.slice(members).filter(inSegment).length);
    expect(await crm.reach({ ...report('past-responders'), pastCampaignIds: [] })).toBe(0);
    // The lead has a Title but no sub-industry: with no segment it counts, with one it cannot.
    expect(await crm.reach({ ...report('follow-up'), segment: empty })).toBe(
      memberContacts.filter((_, i) => !responded(i)).length + 1,
    );
    expect(await crm.reach({ ...report('new-prospects'), segment: empty })).toBe(contacts.length - members);
    expect(soqls()).toContain('SELECT COUNT() FROM Lead WHERE IsConverted = false');
  });

  it('opens the mapped report template with the values as fv0…fvN, and has no contacts page', async () => {
    const url = crm.reportUrl({ type: 'new-prospects', campaignId, segment, pastCampaignIds: [] })!;
    expect(url.startsWith(`${sf.url}/lightning/r/Report/00O5g000004AbCdEAK/view?`)).toBe(true);
    const params = new URL(url).searchParams;
    expect([params.get('fv0'), params.get('fv1')]).toEqual(['Banking', 'CFO']);
    const followUp = new URL(crm.reportUrl({ type: 'follow-up', campaignId, segment, pastCampaignIds: [] })!);
    expect([followUp.searchParams.get('fv0'), followUp.searchParams.get('fv1')]).toEqual([
      campaignId,
      'Finance,Tax',
    ]);
    expect(
      crm.reportUrl({ type: 'past-responders', campaignId, segment, pastCampaignIds: [pastId] }),
    ).toBeNull();
    expect(
      await crm.reportContacts(
        { type: 'follow-up', campaignId, segment, pastCampaignIds: [] },
        { offset: 0, limit: 10 },
      ),
    ).toBeNull();
    expect(
      crm.reportPages({ type: 'follow-up', campaignId, segment, pastCampaignIds: [] }, { pageSize: 10 }),
    ).toBeNull();
  });

  it('reads company size in bands from NumberOfEmployees and AnnualRevenue, counts a sized segment and puts its bands on the report link', async () => {
    const { facts: f, vocabulary } = (await crm.campaignFacts(campaignId, facts))!;
    const memberContacts = contacts.slice(0, members);
    const split = (account: number) => {
      const inAccount = memberContacts
        .map((c, i) => ({ c, i }))
        .filter(({ c }) => c.AccountId === accounts[account]!.Id);
      const responders = inAccount.filter(({ i }) => responded(i)).length;
      return { responders, nonResponders: inAccount.length - responders };
    };
    // The bank (180 people, 42M) and the chemicals firm (1,200, 310M); the lead its own (30, 4.5M).
    expect(f.byEmployees).toEqual([
      { value: '1-49', responders: 0, nonResponders: 1 },
      { value: '50-249', ...split(0) },
      { value: '1000+', ...split(1) },
    ]);
    expect(f.byRevenue).toEqual([
      { value: '0-10M', responders: 0, nonResponders: 1 },
      { value: '10M-50M', ...split(0) },
      { value: '250M-1B', ...split(1) },
    ]);
    expect(f.revenueCurrency).toBe('PLN');
    expect(crm.revenueCurrency).toBe('PLN');
    // Bands need no picklist: every band of a number the org keeps.
    expect(vocabulary.employeeBands).toEqual(['1-49', '50-249', '250-999', '1000+']);
    expect(vocabulary.revenueBands).toEqual(['0-10M', '10M-50M', '50M-250M', '250M-1B', '1B+']);

    const sized = (employeeBands: string[], revenueBands: string[] = []): CrmReportQuery => ({
      type: 'follow-up',
      campaignId,
      segment: { ...empty, employeeBands, revenueBands } as CrmReportQuery['segment'],
      pastCampaignIds: [],
    });
    expect(await crm.reach(sized(['50-249']))).toBe(split(0).nonResponders);
    expect(soqls().slice(-2)).toEqual([
      expect.stringContaining(
        'AND (Contact.Account.NumberOfEmployees >= 50 AND Contact.Account.NumberOfEmployees < 250)',
      ),
      expect.stringContaining('AND (Lead.NumberOfEmployees >= 50 AND Lead.NumberOfEmployees < 250)'),
    ]);
    expect(await crm.reach(sized(['1-49', '1000+']))).toBe(split(1).nonResponders + 1);
    expect(await crm.reach(sized(['1000+'], ['10M-50M']))).toBe(0);
    expect(await crm.reach(sized([], ['10M-50M', '250M-1B']))).toBe(
      split(0).nonResponders + split(1).nonResponders,
    );

    const linked = createSalesforceCrm(
      configOf({
        mapping: {
          ...mapping,
          reports: {
            'new-prospects': {
              reportId: '00O5g000004AbCdEAK',
              filters: ['employeeBands', 'employeesFrom', 'employeesBelow', 'revenueFrom', 'revenueBelow'],
            },
          },
        },
      }),
      { log: silent, timeoutMs: 5_000 },
    );
    const url = new URL(
      linked.reportUrl({ ...sized(['50-249', '250-999'], ['1B+']), type: 'new-prospects' })!,
    );
    expect(['fv0', 'fv1', 'fv2', 'fv3', 'fv4'].map((fv) => url.searchParams.get(fv))).toEqual([
      '50-249,250-999',
      '50',
      '1000',
      '1000000000',
      '',
    ]);
  });

  it('sends a value that tries to break out of its literal as one literal', async () => {
    const hostile = "Banking') OR (Title != 'x";
    const slash = 'Tax\\';
    const reach = await crm.reach({
      type: 'follow-up',
      campaignId,
      segment: { subIndustries: [hostile], roles: [], titles: [], workAreas: [slash, "O'Brien\n"] },
      pastCampaignIds: [],
    });
    expect(reach).toBe(0);
    const counted = sf.requests.filter((r) => r.soql?.startsWith('SELECT COUNT() FROM CampaignMember'));
    expect(counted.length).toBeGreaterThan(0);
    for (const request of counted) {
      expect(request.status).toBe(200);
      expect(request.literals).toEqual(expect.arrayContaining([hostile, slash, "O'Brien\n"]));
    }
  });

  it('gets a fresh token once the org expires the old one, and retries the call', async () => {
    await crm.getCampaign(campaignId);
    const tokens = sf.issuedTokens().length;
    sf.expireTokens();
    expect((await crm.getCampaign(campaignId))!.name).toBe('ESG webinar Q3');
    expect(sf.issuedTokens().length).toBe(tokens + 1);
    expect(sf.requests.filter((r) => r.errorCode === 'INVALID_SESSION_ID')).toHaveLength(1);
  });

  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(CrmError);
    return error as CrmError;
  };

  it('answers a mapping field the org does not have as rejected', async () => {
    const bad = createSalesforceCrm(
      configOf({ mapping: { ...mapping, contact: { ...mapping.contact, workArea: 'Work_Area__c' } } }),
      { log: silent, timeoutMs: 5_000 },
    );
    const error = await failure(bad.campaignFacts(campaignId, facts));
    expect(error.failure).toBe('rejected');
    expect(error.message).toContain('INVALID_FIELD');
  });

  it('answers a 503, a 500 and an HTML page as unavailable, at once (no retries)', async () => {
    await crm.getCampaign(campaignId);
    sf.fail({ kind: 'error', status: 503 });
    expect((await failure(crm.getCampaign(campaignId))).failure).toBe('unavailable');
    sf.fail({ kind: 'error', status: 500 });
    expect((await failure(crm.listCampaigns('', 5))).failure).toBe('unavailable');
    sf.fail({ kind: 'html', status: 502 });
    const html = await failure(crm.getCampaign(campaignId));
    expect(html.failure).toBe('unavailable');
    expect(html.message).not.toContain('<html');
    expect((await crm.getCampaign(campaignId))!.id).toBe(campaignId);
  });

  it('answers a hang as timeout', async () => {
    const quick = createSalesforceCrm(configOf(), { log: silent, timeoutMs: 300 });
    await quick.getCampaign(campaignId);
    sf.fail({ kind: 'hang' });
    expect((await failure(quick.getCampaign(campaignId))).failure).toBe('timeout');
    sf.fail({ kind: 'hang', on: 'token' });
    const fresh = createSalesforceCrm(configOf(), { log: silent, timeoutMs: 300 });
    expect((await failure(fresh.listCampaigns('', 5))).failure).toBe('timeout');
  });

  it('answers a wrong secret as auth, without the secret in the message', async () => {
    const wrong = createSalesforceCrm(
      configOf({ auth: { flow: 'client-credentials', clientSecret: 'not-the-secret' } }),
      {
        log: silent,
        timeoutMs: 5_000,
      },
    );
    const error = await failure(wrong.listCampaigns('', 5));
    expect(error.failure).toBe('auth');
    expect(error.message).toContain('invalid_client');
    expect(error.message).not.toContain('not-the-secret');
    // Not remembered: the next call signs in again.
    await failure(wrong.listCampaigns('', 5));
    expect(sf.requests.filter((r) => r.path === '/services/oauth2/token')).toHaveLength(2);
  });

  it('signs in with the JWT bearer flow', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwtOrg = await startSalesforceServer({ jwtPublicKey: publicKey, data: orgData() });
    try {
      const config = (pem: string): SalesforceConfig => ({
        loginUrl: jwtOrg.url,
        clientId: jwtOrg.clientId,
        apiVersion: '65.0',
        auth: { flow: 'jwt', username: 'integration@gem.example', privateKey: pem },
        mapping,
      });
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const jwt = createSalesforceCrm(config(pem), { log: silent, timeoutMs: 5_000 });
      expect((await jwt.getCampaign(campaignId))!.name).toBe('ESG webinar Q3');
      const token = jwtOrg.requests.find((r) => r.path === '/services/oauth2/token')!;
      expect(token.form).toMatchObject({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' });
      expect(token.form!.client_secret).toBeUndefined();

      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const wrongKey = createSalesforceCrm(
        config(other.export({ type: 'pkcs8', format: 'pem' }).toString()),
        {
          log: silent,
          timeoutMs: 5_000,
        },
      );
      expect((await failure(wrongKey.getCampaign(campaignId))).failure).toBe('auth');
    } finally {
      await jwtOrg.close();
    }
  });
});

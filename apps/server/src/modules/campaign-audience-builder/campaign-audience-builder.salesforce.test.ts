import {
  AUDIENCE_REPORT_PAGE,
  campaignAudienceBuilderPaths as paths,
  campaignsResponseSchema,
  generateSegmentsResponseSchema,
  reportQueryEntries,
} from '@gem/contracts/campaign-audience-builder';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { startOpenAiServer, type OpenAiServer } from '@gem/test-servers/openai-server';
import {
  keyPrefixes,
  salesforceId,
  startSalesforceServer,
  type SalesforceServer,
} from '@gem/test-servers/salesforce-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorOf, PERMITTED_DOMAIN } from '../../../test/ai-harness';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import { crmMappingSchema } from '../../config/crm';
import type { Database } from '../../db/client';
import { CRM_UNAVAILABLE, noSuchCampaign } from '../../lib/crm-calls';
import { REPORTS_IN_SALESFORCE } from './campaign-audience-builder.reports';

/**
 * The campaign audience builder with GEM_CRM_PROVIDER=salesforce, over HTTP: the real jsforce
 * adapter against the local Salesforce org, the real AI adapter against the OpenAI test server.
 * Reports are Salesforce report links with the segment as filter values; a CRM that fails shows
 * words, never Salesforce's.
 */

const campaignId = salesforceId(keyPrefixes.Campaign, 1);
const pastId = salesforceId(keyPrefixes.Campaign, 2);
const account = (n: number, industry: string, sub: string, employees: number) => ({
  Id: salesforceId(keyPrefixes.Account, n),
  Name: `Konto ${n} (fikcyjne)`,
  Industry: industry,
  Sub_Industry__c: sub,
  NumberOfEmployees: employees,
  AnnualRevenue: employees * 400_000,
});
const accounts = [
  account(1, 'Manufacturing', 'Chemicals', 120),
  account(2, 'Financial Services', 'Banking', 2_400),
];
const contacts = Array.from({ length: 60 }, (_, i) => ({
  Id: salesforceId(keyPrefixes.Contact, i + 1),
  FirstName: 'Ewa',
  LastName: `Kowalska ${i + 1}`,
  Title: ['CFO', 'Head of Tax', 'CIO'][i % 3]!,
  Department: i % 2 === 0 ? 'Finance' : 'IT',
  AccountId: accounts[i % 2]!.Id,
}));

const REPORT_ID = '00O5g000004XyZaEAK';
const mapping = crmMappingSchema.parse({
  contact: {
    industry: 'Account.Industry',
    subIndustry: 'Account.Sub_Industry__c',
    title: 'Title',
    role: null,
    workArea: 'Department',
  },
  revenueCurrency: 'EUR',
  reports: {
    'new-prospects': {
      reportId: REPORT_ID,
      filters: ['campaignId', 'subIndustries', 'titles', 'employeesFrom', 'employeesBelow'],
    },
  },
});

let sf: SalesforceServer;
let ai: OpenAiServer;
let issuer: OidcIssuer;
let database: Database;
let app: App;

async function call(method: 'GET' | 'POST', url: string, payload?: object) {
  const authorization = `Bearer ${await issuer.sign(accessClaims('ola', PERMITTED_DOMAIN))}`;
  return app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
}

beforeAll(async () => {
  [sf, ai, issuer, database] = await Promise.all([
    startSalesforceServer({
      data: {
        Account: accounts,
        Contact: contacts,
        Campaign: [
          {
            Id: campaignId,
            Name: 'Webinar ESG 2026',
            Type: 'Webinar',
            StartDate: '2026-10-01',
            Description: 'ESG',
          },
          {
            Id: pastId,
            Name: 'Śniadanie CFO',
            Type: 'Webinar',
            StartDate: '2025-04-01',
            Description: 'Spotkanie z CFO',
            NumberOfContacts: 20,
            NumberOfLeads: 0,
            NumberOfResponses: 8,
          },
        ],
        CampaignMember: contacts.slice(0, 30).map((c, i) => ({
          Id: salesforceId(keyPrefixes.CampaignMember, i + 1),
          CampaignId: campaignId,
          ContactId: c.Id,
          LeadId: null,
          Status: i % 3 === 0 ? 'Responded' : 'Sent',
          HasResponded: i % 3 === 0,
        })),
      },
    }),
    startOpenAiServer(),
    startOidcIssuer(),
    createTestDatabase(),
  ]);
  const base = testConfig();
  app = await buildTestApp({
    database,
    config: testConfig({
      auth: externalAuth(issuer.issuer),
      access: { ...base.access, allowedDomains: [PERMITTED_DOMAIN] },
      ai: {
        ...base.ai,
        service: { provider: 'openai-compatible', model: 'gem-test-model', baseUrl: ai.url, apiKey: 'k' },
        retryBaseDelayMs: 10,
      },
      crm: {
        provider: 'salesforce',
        // Short enough for the hang test's three tries; long enough for a CI machine busy with
        // another file seeding 10,000 contacts (1.5 s was not).
        timeoutMs: 4_000,
        salesforce: {
          loginUrl: sf.url,
          clientId: sf.clientId,
          apiVersion: '65.0',
          auth: { flow: 'client-credentials', clientSecret: sf.clientSecret },
          mapping,
        },
      },
    }),
  });
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([sf?.close(), ai?.close(), issuer?.close(), database?.close()]);
});

beforeEach(() => {
  sf.reset();
  ai.reset();
});

describe('on Salesforce', () => {
  it('lists the org’s campaigns, not marked as sample data', async () => {
    const body = campaignsResponseSchema.parse((await call('GET', paths.campaigns)).json());
    expect(body).toMatchObject({ crm: 'salesforce', sample: false });
    expect(body.campaigns.map((c) => c.id)).toEqual([campaignId, pastId]);
  });

  it('generates segments from the org’s values and links the configured report with them as filter values', async () => {
    const res = await call('POST', paths.generate, { campaignId, topic: 'Więcej CFO z branży chemicznej.' });
    expect(res.statusCode, res.body).toBe(200);
    const body = generateSegmentsResponseSchema.parse(res.json());
    expect(body).toMatchObject({ crm: 'salesforce', sample: false });
    expect(body.facts.members).toBe(30);
    expect(ai.requests[0]!.structured?.schema).toBeDefined();
    expect(body.subIndustries.length).toBeGreaterThan(0);
    for (const value of body.subIndustries) expect(['Chemicals', 'Banking']).toContain(value);
    // Only the new-prospects report has a template in the mapping.
    expect(body.reports.map((r) => r.type)).toEqual(['new-prospects']);
    const url = new URL(body.reports[0]!.url);
    expect(url.origin).toBe(new URL(sf.url).origin);
    expect(url.pathname).toBe(`/lightning/r/Report/${REPORT_ID}/view`);
    expect(url.searchParams.get('fv0')).toBe(campaignId);
    expect(url.searchParams.get('fv1')).toBe(body.subIndustriesString);
    expect(url.searchParams.get('fv2')).toBe(body.titlesString);
    expect(body.reports[0]!.reach).toEqual(expect.any(Number));
  });

  it('never fails for values in a dimension the org lacks (no role field here), or for too many values', async () => {
    ai.enqueue({
      kind: 'object',
      value: {
        explanation: 'Najlepiej odpowiadali CFO z branży chemicznej.',
        // The mapping has no role field: the schema offers no roles, and the model sends some anyway.
        roles: ['CFO', 'Wymyślona rola'],
        subIndustries: [
          'Chemicals',
          'Banking',
          'Chemicals',
          ...Array.from({ length: 12 }, (_, i) => `Inna ${i}`),
        ],
        titles: Array.from({ length: 15 }, () => 'CFO'),
        workAreas: ['Finance'],
        campaignIds: [pastId, 'a0B000000000000XYZ'],
        approach: 'LinkedIn i e-mail, potem telefon.',
      },
    });
    const res = await call('POST', paths.generate, { campaignId, topic: 'Więcej CFO.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(ai.requests).toHaveLength(1);
    const body = generateSegmentsResponseSchema.parse(res.json());
    expect(body.roles).toEqual([]);
    expect(body.subIndustries).toEqual(['Chemicals', 'Banking']);
    expect(body.titles).toEqual(['CFO']);
    expect(body.campaigns.map((c) => c.name)).toEqual(['Śniadanie CFO']);
    const schema = JSON.stringify(ai.requests[0]!.structured?.schema);
    expect(schema).toContain('Brak dostępnych wartości w CRM');
  });

  it('offers the size bands, narrows a segment of mid-sized companies, and puts its span on the report link', async () => {
    ai.enqueue({
      kind: 'object',
      value: {
        explanation: 'Najlepiej odpowiadały średnie firmy chemiczne.',
        subIndustries: [],
        roles: [],
        titles: [],
        workAreas: [],
        employeeBands: ['50-249'],
        revenueBands: ['EUR 10M–50M'],
        campaignIds: [],
        approach: 'E-mail od partnera.',
      },
    });
    const res = await call('POST', paths.generate, { campaignId, topic: 'Średnie firmy.' });
    expect(res.statusCode, res.body).toBe(200);
    const body = generateSegmentsResponseSchema.parse(res.json());
    const schema = JSON.stringify(ai.requests[0]!.structured?.schema);
    expect(schema).toContain('"enum":["1-49","50-249","250-999","1000+"]');
    expect(schema).toContain('(w EUR)');
    expect(body.employeeBands).toEqual(['50-249']);
    expect(body.revenueBands).toEqual(['10M-50M']);
    // The first account (120 people, 48M) holds the even members, the second (2,400) the odd.
    const inFirst = (i: number) => i % 2 === 0;
    const members = contacts.slice(0, 30).map((_, i) => i);
    expect(body.facts.byEmployees).toEqual([
      {
        value: '50-249',
        responders: members.filter((i) => inFirst(i) && i % 3 === 0).length,
        nonResponders: members.filter((i) => inFirst(i) && i % 3 !== 0).length,
      },
      {
        value: '1000+',
        responders: members.filter((i) => !inFirst(i) && i % 3 === 0).length,
        nonResponders: members.filter((i) => !inFirst(i) && i % 3 !== 0).length,
      },
    ]);
    expect(body.facts.revenueCurrency).toBe('EUR');
    const [report] = body.reports;
    // New prospects: the first account's contacts that are not members (30 of the 60 are).
    expect(report!.reach).toBe(contacts.slice(30).filter((_, i) => inFirst(i + 30)).length);
    expect(report!.description).toContain('companies of 50–249 employees; annual revenue EUR 10M–50M');
    const url = new URL(report!.url);
    expect([url.searchParams.get('fv3'), url.searchParams.get('fv4')]).toEqual(['50', '250']);
  });

  it('says that no campaign has an id the org does not know', async () => {
    const missing = salesforceId(keyPrefixes.Campaign, 99);
    const res = await call('POST', paths.generate, { campaignId: missing, topic: 'Cel' });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toBe(noSuchCampaign(missing));
    expect(ai.requests).toHaveLength(0);
  });

  it.each([
    ['is down', { kind: 'error', status: 503 } as const],
    ['answers an HTML error page', { kind: 'html', status: 502 } as const],
    ['does not answer', { kind: 'hang' } as const],
  ])(
    'answers 502 crm_unavailable with words when Salesforce %s, without calling the model',
    async (_, fault) => {
      sf.fail(fault, fault, fault);
      const res = await call('POST', paths.generate, { campaignId, topic: 'Cel' });
      expect(res.statusCode).toBe(502);
      expect(errorOf(res)).toMatchObject({ code: 'crm_unavailable', message: CRM_UNAVAILABLE });
      expect(res.body).not.toMatch(/SERVER_UNAVAILABLE|html|ErrorId/i);
      expect(ai.requests).toHaveLength(0);
    },
  );

  it('has no report pages of its own: reports open in Salesforce', async () => {
    const query = new URLSearchParams(
      reportQueryEntries({
        type: 'new-prospects',
        campaignId,
        segment: { subIndustries: ['Chemicals'], roles: [], titles: [], workAreas: [] },
        pastCampaignIds: [],
      }),
    );
    const res = await call('GET', `${paths.report}?${query}`);
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toBe(REPORTS_IN_SALESFORCE);
    expect(AUDIENCE_REPORT_PAGE).toBe('/tools/campaign-audience-builder/report');
  });
});

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crmConfig, crmEnv, defaultCrmMapping } from './crm';

const dir = mkdtempSync(path.join(tmpdir(), 'gem-crm-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const at = path.join(dir, name);
  writeFileSync(at, content);
  return at;
};
const parse = (env: Record<string, string>) => {
  const problems: string[] = [];
  const config = crmConfig(crmEnv.parse(env), problems);
  return { config, problems };
};
const salesforce = {
  GEM_CRM_PROVIDER: 'salesforce',
  GEM_SALESFORCE_LOGIN_URL: 'https://acme.my.salesforce.com/',
  GEM_SALESFORCE_CLIENT_ID: '3MVG9client',
  GEM_SALESFORCE_CLIENT_SECRET: 'secret',
};

describe('CRM settings', () => {
  it('use the embedded demo CRM by default, with a 20 s deadline', () => {
    expect(parse({})).toEqual({
      config: { provider: 'embedded', timeoutMs: 20_000, salesforce: null },
      problems: [],
    });
  });

  it('read a Salesforce org with client credentials and the standard-field mapping', () => {
    const { config, problems } = parse(salesforce);
    expect(problems).toEqual([]);
    expect(config.salesforce).toEqual({
      loginUrl: 'https://acme.my.salesforce.com',
      clientId: '3MVG9client',
      apiVersion: '65.0',
      auth: { flow: 'client-credentials', clientSecret: 'secret' },
      mapping: defaultCrmMapping,
    });
    expect(defaultCrmMapping).toEqual({
      contact: {
        industry: 'Account.Industry',
        subIndustry: null,
        title: 'Title',
        role: null,
        workArea: 'Department',
        // Company size: the standard fields, banded.
        employees: 'Account.NumberOfEmployees',
        annualRevenue: 'Account.AnnualRevenue',
      },
      lead: {
        industry: 'Industry',
        subIndustry: null,
        title: 'Title',
        role: null,
        workArea: null,
        employees: 'NumberOfEmployees',
        annualRevenue: 'AnnualRevenue',
      },
      campaign: { objective: 'Description', lineOfService: null },
      revenueCurrency: null,
      reports: {},
    });
  });

  it('list what a Salesforce setup lacks', () => {
    expect(parse({ GEM_CRM_PROVIDER: 'salesforce' }).problems).toEqual([
      'GEM_SALESFORCE_LOGIN_URL: is required with GEM_CRM_PROVIDER=salesforce',
      'GEM_SALESFORCE_CLIENT_ID: is required with GEM_CRM_PROVIDER=salesforce',
      'GEM_SALESFORCE_CLIENT_SECRET: is required with GEM_CRM_PROVIDER=salesforce and GEM_SALESFORCE_AUTH=client-credentials',
    ]);
    expect(parse({ ...salesforce, GEM_SALESFORCE_AUTH: 'jwt' }).problems).toEqual([
      'GEM_SALESFORCE_USERNAME: is required with GEM_SALESFORCE_AUTH=jwt',
      'GEM_SALESFORCE_PRIVATE_KEY_FILE: is required with GEM_SALESFORCE_AUTH=jwt',
    ]);
    expect(
      parse({
        ...salesforce,
        GEM_SALESFORCE_AUTH: 'jwt',
        GEM_SALESFORCE_USERNAME: 'u@x.example',
        GEM_SALESFORCE_PRIVATE_KEY_FILE: file('k.txt', 'nope'),
      }).problems[0],
    ).toMatch(/^GEM_SALESFORCE_PRIVATE_KEY_FILE \(.*\): must be an RSA private key in PKCS #8 PEM form/);
    expect(crmEnv.safeParse({ GEM_CRM_PROVIDER: 'hubspot' }).success).toBe(false);
    expect(crmEnv.safeParse({ GEM_SALESFORCE_API_VERSION: 'v65' }).success).toBe(false);
    expect(crmEnv.safeParse({ GEM_SALESFORCE_LOGIN_URL: 'ftp://x' }).success).toBe(false);
  });

  it('read a JWT key file', () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const { config, problems } = parse({
      ...salesforce,
      GEM_SALESFORCE_AUTH: 'jwt',
      GEM_SALESFORCE_USERNAME: 'integration@acme.example',
      GEM_SALESFORCE_PRIVATE_KEY_FILE: file('key.pem', pem),
    });
    expect(problems).toEqual([]);
    expect(config.salesforce!.auth).toEqual({
      flow: 'jwt',
      username: 'integration@acme.example',
      privateKey: pem,
    });
  });

  it('read a mapping file: custom fields, unused dimensions, report templates', () => {
    const mapping = file(
      'mapping.json',
      JSON.stringify({
        contact: {
          subIndustry: 'Account.Sub_Industry__c',
          role: 'Role__c',
          workArea: null,
          annualRevenue: 'Account.Revenue_EUR__c',
        },
        lead: null,
        campaign: { lineOfService: 'Line_of_Service__c' },
        revenueCurrency: 'EUR',
        reports: {
          'follow-up': {
            reportId: '00O5g000004AbCdEAK',
            filters: ['campaignId', 'titles', 'employeesFrom', 'employeesBelow', 'revenueBands'],
          },
        },
      }),
    );
    const { config, problems } = parse({ ...salesforce, GEM_SALESFORCE_MAPPING_FILE: mapping });
    expect(problems).toEqual([]);
    expect(config.salesforce!.mapping).toEqual({
      contact: {
        industry: 'Account.Industry',
        subIndustry: 'Account.Sub_Industry__c',
        title: 'Title',
        role: 'Role__c',
        workArea: null,
        employees: 'Account.NumberOfEmployees',
        annualRevenue: 'Account.Revenue_EUR__c',
      },
      lead: null,
      campaign: { objective: 'Description', lineOfService: 'Line_of_Service__c' },
      revenueCurrency: 'EUR',
      reports: {
        'follow-up': {
          reportId: '00O5g000004AbCdEAK',
          filters: ['campaignId', 'titles', 'employeesFrom', 'employeesBelow', 'revenueBands'],
        },
      },
    });
  });

  it('refuse a mapping file that is missing, not JSON, or names something that is not a field', () => {
    const problemsOf = (content: string | null) =>
      parse({
        ...salesforce,
        GEM_SALESFORCE_MAPPING_FILE:
          content === null ? path.join(dir, 'none.json') : file('bad.json', content),
      }).problems;
    expect(problemsOf(null)[0]).toMatch(
      /^GEM_SALESFORCE_MAPPING_FILE \(.*none\.json\): the file does not exist$/,
    );
    expect(problemsOf('{')[0]).toMatch(/: is not valid JSON/);
    const injected = problemsOf(
      JSON.stringify({
        contact: { title: "Title FROM Contact WHERE Name = 'x'" },
        revenueCurrency: 'zł',
        reports: { 'follow-up': { reportId: 'x' } },
        extra: 1,
      }),
    );
    expect(injected).toEqual([
      expect.stringMatching(/contact\.title: must be a field API name/),
      expect.stringMatching(/revenueCurrency: must be a currency code such as PLN or EUR/),
      expect.stringMatching(/reports\.follow-up\.reportId: must be a report id/),
      expect.stringMatching(/Unrecognized key/),
    ]);
  });
});

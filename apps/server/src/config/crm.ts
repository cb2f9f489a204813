import { readFileSync } from 'node:fs';
import { crmProviders, reportTypes, type ReportType } from '@gem/contracts/campaign-audience-builder';
import { z } from 'zod';
import { httpUrl, positiveInt, readJsonFile } from './env-values';

/**
 * The CRM the campaign audience builder reads (issue 14): GEM's embedded demo CRM, or a
 * Salesforce org over its REST API (an External Client App with the client-credentials flow, or
 * the JWT bearer flow), and how that org's fields map onto what GEM reads (the mapping file).
 */

export const salesforceAuthFlows = ['client-credentials', 'jwt'] as const;

export const crmEnv = z.object({
  GEM_CRM_PROVIDER: z
    .enum(crmProviders, { error: `must be one of ${crmProviders.join(', ')}` })
    .default('embedded'),
  GEM_CRM_TIMEOUT_MS: positiveInt(300_000).default(20_000),
  GEM_SALESFORCE_LOGIN_URL: httpUrl.optional(),
  GEM_SALESFORCE_CLIENT_ID: z.string().min(1).max(1_024).optional(),
  GEM_SALESFORCE_CLIENT_SECRET: z.string().min(1).max(1_024).optional(),
  GEM_SALESFORCE_API_VERSION: z
    .string()
    .regex(/^\d{2,3}\.0$/, { error: 'must be an API version such as 65.0' })
    .default('65.0'),
  GEM_SALESFORCE_AUTH: z
    .enum(salesforceAuthFlows, { error: `must be one of ${salesforceAuthFlows.join(', ')}` })
    .default('client-credentials'),
  GEM_SALESFORCE_USERNAME: z.string().min(1).max(255).optional(),
  GEM_SALESFORCE_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  GEM_SALESFORCE_MAPPING_FILE: z.string().min(1).optional(),
});

export type CrmEnv = z.infer<typeof crmEnv>;

/**
 * A field path from the record it is read on: `Title`, `Account.Industry`, `Account.Sub_Industry__c`.
 * Field paths are written into SOQL as they are, so only API names pass (letters, digits, `_`).
 */
const fieldPath = z
  .string()
  .regex(/^[a-z]\w{0,79}(?:\.[a-z]\w{0,79}){0,4}$/i, {
    error: 'must be a field API name or a relationship path such as Account.Industry',
  })
  .nullable();

/**
 * Where each kind of value is on a person record (Contact or Lead); null: not used in this org.
 * `employees` and `annualRevenue` are numbers (the company's), banded into the size dimensions.
 */
type PersonFieldName =
  'industry' | 'subIndustry' | 'title' | 'role' | 'workArea' | 'employees' | 'annualRevenue';
const personFields = (defaults: Record<PersonFieldName, string | null>) =>
  z
    .object({
      industry: fieldPath.default(defaults.industry),
      subIndustry: fieldPath.default(defaults.subIndustry),
      title: fieldPath.default(defaults.title),
      role: fieldPath.default(defaults.role),
      workArea: fieldPath.default(defaults.workArea),
      employees: fieldPath.default(defaults.employees),
      annualRevenue: fieldPath.default(defaults.annualRevenue),
    })
    .strict();

const contactDefaults = {
  industry: 'Account.Industry',
  subIndustry: null,
  title: 'Title',
  role: null,
  workArea: 'Department',
  employees: 'Account.NumberOfEmployees',
  annualRevenue: 'Account.AnnualRevenue',
};
const leadDefaults = {
  industry: 'Industry',
  subIndustry: null,
  title: 'Title',
  role: null,
  workArea: null,
  employees: 'NumberOfEmployees',
  annualRevenue: 'AnnualRevenue',
};

/**
 * What an fvN parameter of a report template is filled with: a list's values comma-joined; a
 * size dimension's band keys (`employeeBands`, `revenueBands`: for a filter on a formula field
 * that gives GEM's keys), or the span of the chosen bands as numbers (`employeesFrom` for a
 * "greater or equal" filter, `employeesBelow` for a "less than" one; empty when the segment has
 * no such bound).
 */
export const reportFilterValues = [
  'campaignId',
  'pastCampaignIds',
  'subIndustries',
  'roles',
  'titles',
  'workAreas',
  'employeeBands',
  'revenueBands',
  'employeesFrom',
  'employeesBelow',
  'revenueFrom',
  'revenueBelow',
] as const;
export type ReportFilterValue = (typeof reportFilterValues)[number];

const reportTemplate = z
  .object({
    /** A Salesforce report id (00O…). */
    reportId: z.string().regex(/^00O[a-z0-9]{12}(?:[a-z0-9]{3})?$/i, { error: 'must be a report id (00O…)' }),
    /** fv0, fv1… in order: each the listed values, comma-joined. */
    filters: z.array(z.enum(reportFilterValues)).max(20).default([]),
  })
  .strict();

export const crmMappingSchema = z
  .object({
    contact: personFields(contactDefaults).default(contactDefaults),
    /** Null: campaign members that are leads are left out. */
    lead: personFields(leadDefaults).nullable().default(leadDefaults),
    /** The org's currency of AnnualRevenue (ISO 4217, e.g. PLN), shown with the revenue bands. */
    revenueCurrency: z
      .string()
      .regex(/^[A-Z]{3}$/, { error: 'must be a currency code such as PLN or EUR' })
      .nullable()
      .default(null),
    campaign: z
      .object({ objective: fieldPath.default('Description'), lineOfService: fieldPath.default(null) })
      .strict()
      .default({ objective: 'Description', lineOfService: null }),
    /** The report template per report type; a type without one has no report link. */
    reports: z
      .object(
        Object.fromEntries(reportTypes.map((type) => [type, reportTemplate.optional()])) as Record<
          ReportType,
          z.ZodOptional<typeof reportTemplate>
        >,
      )
      .strict()
      .default({}),
  })
  .strict();

export type CrmMapping = z.infer<typeof crmMappingSchema>;
export type PersonFields = CrmMapping['contact'];

export type SalesforceAuth =
  | { flow: 'client-credentials'; clientSecret: string }
  | { flow: 'jwt'; username: string; privateKey: string };

export type SalesforceConfig = {
  /** The org's My Domain URL: the token endpoint is below it. */
  loginUrl: string;
  clientId: string;
  apiVersion: string;
  auth: SalesforceAuth;
  mapping: CrmMapping;
};

/** Which CRM the audience builder reads; see README "Campaign audience builder". */
export type CrmConfig = {
  provider: (typeof crmProviders)[number];
  /** The deadline of one CRM call (its requests together). */
  timeoutMs: number;
  /** Set when provider is salesforce. */
  salesforce: SalesforceConfig | null;
};

export const defaultCrmMapping: CrmMapping = crmMappingSchema.parse({});

export function crmConfig(e: CrmEnv, problems: string[]): CrmConfig {
  if (e.GEM_CRM_PROVIDER === 'embedded') {
    return { provider: 'embedded', timeoutMs: e.GEM_CRM_TIMEOUT_MS, salesforce: null };
  }
  const required = (
    name: keyof CrmEnv,
    value: string | undefined,
    why = 'with GEM_CRM_PROVIDER=salesforce',
  ) => {
    if (!value) problems.push(`${name}: is required ${why}`);
    return value ?? '';
  };
  const loginUrl = required('GEM_SALESFORCE_LOGIN_URL', e.GEM_SALESFORCE_LOGIN_URL);
  const clientId = required('GEM_SALESFORCE_CLIENT_ID', e.GEM_SALESFORCE_CLIENT_ID);
  let auth: SalesforceAuth;
  if (e.GEM_SALESFORCE_AUTH === 'jwt') {
    const username = required(
      'GEM_SALESFORCE_USERNAME',
      e.GEM_SALESFORCE_USERNAME,
      'with GEM_SALESFORCE_AUTH=jwt',
    );
    const keyFile = required(
      'GEM_SALESFORCE_PRIVATE_KEY_FILE',
      e.GEM_SALESFORCE_PRIVATE_KEY_FILE,
      'with GEM_SALESFORCE_AUTH=jwt',
    );
    auth = { flow: 'jwt', username, privateKey: keyFile ? readPrivateKey(keyFile, problems) : '' };
  } else {
    auth = {
      flow: 'client-credentials',
      clientSecret: required(
        'GEM_SALESFORCE_CLIENT_SECRET',
        e.GEM_SALESFORCE_CLIENT_SECRET,
        'with GEM_CRM_PROVIDER=salesforce and GEM_SALESFORCE_AUTH=client-credentials',
      ),
    };
  }
  return {
    provider: 'salesforce',
    timeoutMs: e.GEM_CRM_TIMEOUT_MS,
    salesforce: {
      loginUrl: withoutTrailingSlashes(loginUrl),
      clientId,
      apiVersion: e.GEM_SALESFORCE_API_VERSION,
      auth,
      mapping: e.GEM_SALESFORCE_MAPPING_FILE
        ? readCrmMapping(e.GEM_SALESFORCE_MAPPING_FILE, problems)
        : defaultCrmMapping,
    },
  };
}

function readPrivateKey(file: string, problems: string[]): string {
  const where = `GEM_SALESFORCE_PRIVATE_KEY_FILE (${file})`;
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    problems.push(`${where}: ${code === 'ENOENT' ? 'the file does not exist' : 'cannot be read'}`);
    return '';
  }
  if (!pem.includes('-----BEGIN PRIVATE KEY-----')) {
    problems.push(
      `${where}: must be an RSA private key in PKCS #8 PEM form (-----BEGIN PRIVATE KEY-----); convert one with openssl pkcs8 -topk8 -nocrypt`,
    );
  }
  return pem;
}

/** Reads and checks the mapping file; every problem is pushed as "GEM_SALESFORCE_MAPPING_FILE (file): …". */
export function readCrmMapping(file: string, problems: string[]): CrmMapping {
  const where = `GEM_SALESFORCE_MAPPING_FILE (${file})`;
  const raw = readJsonFile(file, where, problems);
  if (raw === undefined) return defaultCrmMapping;
  const parsed = crmMappingSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${where}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
    }
    return defaultCrmMapping;
  }
  return parsed.data;
}

const withoutTrailingSlashes = (url: string) => {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end -= 1;
  return url.slice(0, end);
};

import { strFromU8, unzipSync } from 'fflate';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  keyPrefixes,
  salesforceId,
  startSalesforceServer,
  type SalesforceData,
  type SalesforceServer,
} from '@gem/test-servers/salesforce-server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { LONG_TEST_MS } from './brief-creator-page';
import { useAiControl } from './support/ai-control';
import { audit } from './support/axe';
import { pageProblems, screenshot, useBrowser } from './support/browser';
import { campaignFromChat } from './support/campaign-from-chat';
import { startGem, type RunningGem } from './support/gem-server';
import { signInWithPopup } from './support/sign-in';

// A campaign's audience (issue 29) in Chromium against Salesforce: a GEM server of this file's
// own with GEM_CRM_PROVIDER=salesforce, signed in to the local Salesforce org
// (test-servers/salesforce-server) with the client-credentials flow, and the shared AI test
// server. The campaign gets the org's campaign as its CRM campaign; the audience builder, opened
// from it, reads the campaign's facts from the org and lists each segment's reports as links to
// the Salesforce report templates of the mapping file (no report page in GEM); a segment saved
// to the campaign is added by a dry run, the confirmation (one sObject Collections request of
// CampaignMember rows) and a second dry run that finds nobody left to add; the pack names the
// segment's Salesforce report. At 1440 and 390 px, axe at both.

const browser = useBrowser();
const { script } = useAiControl();

const widths = ['desktop', 'mobile'] as const;
type Width = (typeof widths)[number];
const px = (width: Width) => (width === 'desktop' ? 1440 : 390);

const year = new Date().getFullYear();
const targetId = salesforceId(keyPrefixes.Campaign, 1);
const pastId = salesforceId(keyPrefixes.Campaign, 2);
const targetName = `CFO Webinar ${year}`;
const reportIds = {
  'new-prospects': '00O5g000004AbCdEAK',
  'follow-up': '00O5g000004AbCeEAK',
  'past-responders': '00O5g000004AbCfEAK',
};
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
const titles = ['CFO', 'Head of Tax', 'Controller'];
const contacts = Array.from({ length: 60 }, (_, i) => ({
  Id: salesforceId(keyPrefixes.Contact, i + 1),
  FirstName: 'Anna',
  LastName: `Nowak ${i + 1}`,
  Email: `anna.nowak${i + 1}@example.com`,
  Title: titles[i % titles.length]!,
  Department: i % 3 === 0 ? 'Tax' : 'Finance',
  AccountId: accounts[i % 2]!.Id,
}));
/** Contacts 0–19 are the campaign's members (every third one responded); 30–49 answered last year's. */
const members = 20;

function orgData(): SalesforceData {
  let n = 0;
  const member = (campaignId: string, contactId: string, responded: boolean) => ({
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
    Campaign: [
      {
        Id: targetId,
        Name: targetName,
        Type: 'Webinar',
        StartDate: `${year}-10-01`,
        Description: 'Win qualified leads among CFOs',
      },
      {
        Id: pastId,
        Name: `CFO breakfast ${year - 1}`,
        Type: 'Webinar',
        StartDate: `${year - 1}-03-01`,
        Description: 'Meet CFOs',
        NumberOfContacts: 20,
        NumberOfLeads: 0,
        NumberOfResponses: 20,
      },
    ],
    CampaignMember: [
      ...contacts.slice(0, members).map((c, i) => member(targetId, c.Id, i % 3 === 0)),
      ...contacts.slice(30, 50).map((c) => member(pastId, c.Id, true)),
    ],
  };
}

const mapping = {
  contact: {
    industry: 'Account.Industry',
    subIndustry: 'Account.Sub_Industry__c',
    title: 'Title',
    role: null,
    workArea: 'Department',
  },
  lead: null,
  revenueCurrency: 'PLN',
  reports: {
    'new-prospects': {
      reportId: reportIds['new-prospects'],
      filters: ['campaignId', 'subIndustries', 'titles'],
    },
    'follow-up': { reportId: reportIds['follow-up'], filters: ['campaignId', 'workAreas'] },
    'past-responders': { reportId: reportIds['past-responders'], filters: ['pastCampaignIds'] },
  },
};

let sf: SalesforceServer;
let gem: RunningGem;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'gem-e2e-salesforce-'));
  const mappingFile = path.join(work, 'crm-mapping.json');
  writeFileSync(mappingFile, JSON.stringify(mapping));
  sf = await startSalesforceServer({ data: orgData() });
  // As global-setup starts the shared app (the embedded identity provider, the shared AI test
  // server, which useAiControl scripts), with Salesforce as the CRM.
  gem = await startGem({
    NODE_ENV: 'test',
    GEM_DATA_DIR: path.join(work, 'data'),
    GEM_LOG_LEVEL: 'warn',
    GEM_AI_PROVIDER: 'openai-compatible',
    GEM_AI_BASE_URL: `${inject('aiControlURL')}/v1`,
    GEM_AI_MODEL: 'gem-test-model',
    GEM_AI_API_KEY: 'e2e-test-key',
    GEM_AI_RATE_LIMIT_PER_MINUTE: '1000',
    GEM_CRM_PROVIDER: 'salesforce',
    GEM_SALESFORCE_LOGIN_URL: sf.url,
    GEM_SALESFORCE_CLIENT_ID: sf.clientId,
    GEM_SALESFORCE_CLIENT_SECRET: sf.clientSecret,
    GEM_SALESFORCE_MAPPING_FILE: mappingFile,
  });
}, 60_000);

afterAll(async () => {
  await gem?.stop();
  await sf?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  // Each width adds to the org's campaign as it was.
  sf.setData(orgData());
  sf.reset();
});

/** The org's writes through its REST API (token requests and queries aside). */
const writes = () =>
  sf.requests
    .filter((r) => r.method !== 'GET' && r.path.startsWith('/services/data/'))
    .map((r) => `${r.method} ${r.path.replace(/^\/services\/data\/v[\d.]+/, '')}`);

/** The campaign's members in the org, by contact id, each with how many rows it has. */
const targetMembers = () => {
  const count = new Map<string, number>();
  for (const m of sf.records('CampaignMember').filter((row) => row.CampaignId === targetId)) {
    const id = String(m.ContactId);
    count.set(id, (count.get(id) ?? 0) + 1);
  }
  return count;
};

/** The page at its width, with `target` in view; it never scrolls sideways; axe. */
async function shot(page: Page, name: string, found: string[], target: ReturnType<Page['getByRole']>) {
  await target.scrollIntoViewIfNeeded();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: `${name} scrolls sideways`,
    })
    .toBeLessThanOrEqual(0);
  await screenshot(page, name, { fullPage: false });
  found.push(...(await audit(page, name)));
}

describe.each(widths)(
  'A campaign’s audience in Salesforce at %s width (issue 29)',
  { timeout: 2 * LONG_TEST_MS },
  (width: Width) => {
    it('a segment saved from the audience builder is added to the Salesforce campaign: dry run, confirm, nobody twice', async () => {
      const page = await browser.open(width, gem.baseURL);
      await signInWithPopup(page);
      const found: string[] = [];
      const name = `Audience Salesforce Webinar ${width}`;
      const campaignPath = await campaignFromChat(page, name, script);

      // The org's campaign as the CRM campaign.
      const audience = page.getByRole('region', { name: 'Audience', exact: true });
      await audience.getByText(/No CRM campaign yet/).waitFor();
      await audience.getByRole('link', { name: 'Set its CRM campaign ID in the settings' }).click();
      const crmField = page.getByRole('textbox', { name: 'CRM campaign ID' });
      await expect.poll(() => crmField.evaluate((el) => el === document.activeElement)).toBe(true);
      await crmField.fill(targetId);
      const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.ok());
      await page.getByRole('button', { name: 'Save CRM campaign ID' }).click();
      await saved;
      await audience.getByText(/Targets the CRM campaign/).waitFor();

      // The audience builder, opened from the campaign: the org's campaign, its facts and reports.
      await audience.getByRole('link', { name: 'Open the audience builder' }).click();
      await page.waitForURL((url) => url.pathname === '/tools/campaign-audience-builder');
      expect(await page.getByRole('textbox', { name: 'Campaign ID' }).inputValue()).toBe(targetId);
      await page.getByText(`Building the audience of ${name}`).waitFor();
      await page.getByRole('button', { name: 'Generate Segments' }).click();
      const reports = page.getByRole('region', { name: 'Segments' }).getByRole('region', { name: 'Reports' });
      const prospects = reports.getByRole('region', { name: 'New prospects' }).getByRole('article').first();
      await prospects.waitFor({ timeout: 30_000 });
      const title = ((await prospects.getByRole('heading', { level: 5 }).textContent()) ?? '').trim();
      // The report is Salesforce's: the mapping's report template, with the segment as fv0…fvN.
      const reportHref = await prospects.getByRole('link', { name: /^Open Report/ }).getAttribute('href');
      const reportUrl = new URL(reportHref ?? '');
      expect(`${reportUrl.origin}${reportUrl.pathname}`).toBe(
        `${sf.url}/lightning/r/Report/${reportIds['new-prospects']}/view`,
      );
      expect(reportUrl.searchParams.get('fv0')).toBe(targetId);
      expect(reportUrl.searchParams.get('fv1')).toMatch(/Banking|Chemicals/);
      // Its reach: the segment's contacts that are not the campaign's members yet.
      await page
        .getByText('Salesforce reports for the segment. Copy a link to share it, or open it.')
        .waitFor();
      await prospects.getByText('20 contacts', { exact: true }).waitFor();
      // The facts and the reach came from the org by SOQL; nothing was written.
      expect(sf.requests.some((r) => r.soql?.includes('FROM CampaignMember'))).toBe(true);
      expect(writes()).toEqual([]);

      await prospects.getByRole('button', { name: `Save to campaign: ${title}` }).click();
      const toast = page.getByText(`Saved “${title}” to “${name}”.`);
      await toast.waitFor();
      await prospects.getByRole('button', { name: `Saved to campaign: ${title}` }).waitFor();
      // Closed, so that it covers nothing.
      await page.getByRole('button', { name: 'close', exact: true }).click();
      await toast.waitFor({ state: 'detached' });
      await shot(page, `campaign-audience-salesforce-builder-${px(width)}`, found, prospects);

      // Back on the campaign: the segment, its report link the Salesforce report's.
      await page.getByRole('link', { name: 'Back to the campaign' }).click();
      await page.waitForURL((url) => url.pathname === campaignPath);
      const segment = audience.getByRole('listitem', { name: title });
      await segment.waitFor();
      expect(await segment.innerText()).toContain(targetId);
      expect(await segment.getByRole('link', { name: /^Open the report/ }).getAttribute('href')).toBe(
        reportHref,
      );

      // The dry run, counted in the org.
      const before = targetMembers();
      expect(before.size).toBe(members);
      await segment.getByRole('button', { name: 'Add to CRM campaign' }).click();
      const dryRun = segment.getByText(/^Dry run: /);
      await dryRun.waitFor({ timeout: 20_000 });
      const counts = /^Dry run: ([\d,]+) contacts?: ([\d,]+) new, ([\d,]+) already/.exec(
        (await dryRun.textContent()) ?? '',
      );
      expect(counts).not.toBeNull();
      const [total, fresh, already] = counts!.slice(1, 4).map((n) => Number(n.replace(/,/g, '')));
      expect(total).toBeGreaterThan(0);
      expect(fresh).toBeGreaterThan(0);
      // The stand-in model picks the 50–249 employee band for the brief's mid-sized companies:
      // Wisła Bank's 30 contacts, 10 of them members already.
      expect([total, fresh, already]).toEqual([30, 20, 10]);
      await segment.getByText('Nothing is changed in the CRM until you confirm.').waitFor();
      expect(writes()).toEqual([]);
      await shot(page, `campaign-audience-salesforce-dry-run-${px(width)}`, found, segment);

      // Confirmed: one sObject Collections request of the new CampaignMember rows.
      sf.reset();
      await segment.getByRole('button', { name: `Add ${fresh} contacts to ${targetName}` }).click();
      const result = segment.getByText(/^Added [\d,]+ contacts? · /);
      await result.waitFor({ timeout: 30_000 });
      expect(await result.textContent()).toBe(`Added ${fresh} contacts · ${already} already members.`);
      const runs = audience.getByRole('region', { name: 'Added to the CRM campaign' });
      await runs.waitFor();
      expect(await runs.getByRole('row').count()).toBe(2);
      expect(writes()).toEqual(['POST /composite/sobjects']);
      const inserted = JSON.parse(sf.requests.find((r) => r.path.endsWith('/composite/sobjects'))!.body!) as {
        allOrNone: boolean;
        records: { attributes: { type: string }; CampaignId: string; ContactId: string }[];
      };
      expect(inserted.records).toHaveLength(fresh!);
      expect(new Set(inserted.records.map((r) => r.attributes.type))).toEqual(new Set(['CampaignMember']));
      expect(new Set(inserted.records.map((r) => r.CampaignId))).toEqual(new Set([targetId]));
      expect(inserted.records.every((r) => !before.has(r.ContactId))).toBe(true);
      const after = targetMembers();
      expect(after.size).toBe(members + fresh!);
      expect([...after.values()].every((rows) => rows === 1)).toBe(true);
      await shot(page, `campaign-audience-salesforce-added-${px(width)}`, found, segment);

      // Again: nobody is left to add, and nothing is sent to the org.
      sf.reset();
      await segment.getByRole('button', { name: 'Done' }).click();
      await segment.getByRole('button', { name: 'Add to CRM campaign' }).click();
      await segment
        .getByText(new RegExp(`^Dry run: ${total} contacts: 0 new, ${total} already`))
        .waitFor({ timeout: 20_000 });
      await segment.getByText('Nothing to add: every contact is already a member.').waitFor();
      expect(await segment.getByRole('button', { name: /^Add [\d,]+ contacts? to / }).count()).toBe(0);
      expect(writes()).toEqual([]);
      expect(targetMembers()).toEqual(after);

      // The pack: with the reports in Salesforce, the segment's file names its report, not its contacts.
      const handover = page.getByRole('region', { name: 'Hand it over' });
      const download = page.waitForEvent('download');
      await handover.getByRole('button', { name: 'Download pack' }).click();
      const zip = await download;
      await handover.getByText(/the audience of 1 segment/).waitFor({ timeout: 30_000 });
      const files = unzipSync(new Uint8Array(await readFile((await zip.path())!)));
      const audienceFiles = Object.keys(files).filter((file) => file.startsWith('audience/'));
      expect(audienceFiles).toHaveLength(1);
      expect(audienceFiles[0]).toMatch(/^audience\/.+\.txt$/);
      expect(strFromU8(files[audienceFiles[0]!]!)).toBe(
        `${title}\r\n\r\nIts contacts are in the CRM's report: ${reportHref}\r\n`,
      );

      if (found.length > 0) console.error(`axe found:\n${found.join('\n')}`);
      expect(found).toEqual([]);
      expect(pageProblems(page)).toEqual([]);
    });
  },
);

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from './support/axe';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { startGem, type RunningGem } from './support/gem-server';
import { admin, outsider, signInWithPopup, type DemoAccount } from './support/sign-in';

// Access requests and revocations (issue 30) in Chromium: the outsider asks for access from the
// Access Denied page, the administrator approves, the outsider gets in; the administrator
// revokes, and the outsider is shut out at their next visit. On a server of its own, so the
// outsider stays an outsider for every other file.

const browser = useBrowser();
const NOTE = 'I run the spring campaign for the Poznań office.';

let gem: RunningGem;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gem-e2e-access-'));
  gem = await startGem({ NODE_ENV: 'test', GEM_DATA_DIR: join(dataDir, 'data'), GEM_LOG_LEVEL: 'warn' });
});

afterAll(async () => {
  await gem?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function signedIn(account: DemoAccount, viewport: keyof typeof viewports = 'desktop'): Promise<Page> {
  const page = await browser.open(viewport, gem.baseURL);
  await signInWithPopup(page, account);
  return page;
}

const denied = (page: Page) => page.getByRole('heading', { level: 1, name: 'You cannot use GEM yet' });
const home = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'Welcome to Generative and enhanced marketing' });
const outsiderRow = (page: Page): Locator =>
  page.getByRole('listitem').filter({ hasText: 'outsider@example.com' });

// Serious or critical axe violations of the screens below, at both widths (decision 023).
const violations: string[] = [];

async function bothWidths(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-desktop`);
  violations.push(...(await audit(page, `${name} (1440)`)));
  await page.setViewportSize(viewports.mobile);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-mobile`);
  violations.push(...(await audit(page, `${name} (390)`)));
  await page.setViewportSize(viewports.desktop);
}

describe('access requests and revocations', () => {
  it('lists the demo accounts on /login', async () => {
    const page = await browser.open('desktop', gem.baseURL);
    await page.goto('/login');
    const demo = page.getByRole('region', { name: 'Demo accounts of the built-in sign-in service' });
    for (const email of [
      'marketer@example.com',
      'colleague@example.com',
      'outsider@example.com',
      'admin@example.com',
    ]) {
      await demo.getByText(email).waitFor();
    }
    await bothWidths(page, 'login-demo-accounts');
    expect(violations).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('an outsider requests access, an admin approves, and the outsider gets in; a revocation takes effect', async () => {
    // The outsider asks, with a note.
    const out = await signedIn(outsider);
    await denied(out).waitFor();
    await out.getByRole('button', { name: 'Request access' }).click();
    await out.getByLabel('Note to the administrators (optional)').fill(NOTE);
    await out.getByRole('button', { name: 'Send request' }).click();
    await out.getByText(/Your request is pending since/).waitFor();
    await bothWidths(out, 'access-denied-request');

    // The administrator sees it waiting and approves it.
    const adm = await signedIn(admin);
    await adm.goto('/admin/access');
    const request = adm.getByRole('listitem', { name: 'Request of Demo Outsider' });
    await request.getByText(NOTE).waitFor();
    await bothWidths(adm, 'admin-access-request');
    await request.getByLabel('Reason (optional)').fill('Spring campaign');
    await request.getByRole('button', { name: 'Approve Demo Outsider' }).click();
    await adm.getByText('No one is waiting for access.').waitFor();
    await outsiderRow(adm).getByText('Access list').waitFor();
    await outsiderRow(adm)
      .getByText(/Granted by Demo Admin on .*Spring campaign/)
      .waitFor();

    // The outsider's next visit lets them in.
    await out.reload();
    await home(out).waitFor();

    // The administrator revokes, with a reason, in the confirm dialog.
    await outsiderRow(adm).getByRole('button', { name: 'Revoke the access of Demo Outsider' }).click();
    const dialog = adm.getByRole('dialog', { name: 'Revoke the access of Demo Outsider?' });
    await dialog.getByRole('button', { name: 'Revoke access' }).click();
    await dialog.getByRole('alert').getByText('Give a reason.').waitFor();
    await dialog.getByLabel('Reason').fill('The campaign is over');
    await dialog.getByRole('button', { name: 'Revoke access' }).click();
    await dialog.waitFor({ state: 'detached' });
    await outsiderRow(adm)
      .getByText(/Revoked by Demo Admin on .*The campaign is over/)
      .waitFor();
    await bothWidths(adm, 'admin-access');

    // One instance: its remembered decision went with the revocation, so the next visit is refused.
    await out.reload();
    await denied(out).waitFor();
    // The approved request is history: the outsider may ask again.
    await out.getByRole('button', { name: 'Request access' }).waitFor();

    // Granting an e-mail nobody has signed in with is refused in words.
    await adm.getByLabel('E-mail').fill('nobody@example.com');
    await adm.getByLabel('Reason', { exact: true }).fill('New hire');
    await adm.getByRole('button', { name: 'Grant access' }).click();
    await adm.getByText(/No one with the e-mail nobody@example.com has signed in to GEM yet/).waitFor();

    expect(violations).toEqual([]);
    expect(pageProblems(out)).toEqual([]);
    // The refused grant is a 400 the console reports as a failed request; nothing else.
    expect(pageProblems(adm).filter((p) => !p.includes('400'))).toEqual([]);
  }, 180_000);
});

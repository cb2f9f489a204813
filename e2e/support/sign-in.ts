import type { Page } from 'playwright-core';

export type DemoAccount = { email: string; password: string };

// The embedded provider's demo accounts (README, "Demo accounts").
export const marketer: DemoAccount = { email: 'marketer@example.com', password: 'marketer' };
export const colleague: DemoAccount = { email: 'colleague@example.com', password: 'colleague' };
export const outsider: DemoAccount = { email: 'outsider@example.com', password: 'outsider' };
/** An administrator while demo accounts are on (issue 30). */
export const admin: DemoAccount = { email: 'admin@example.com', password: 'admin' };

/** Fills GEM's embedded provider login page. */
export async function fillProviderLogin(page: Page, account: DemoAccount) {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * A real popup sign-in from /login; resolves once the popup has handed its answer back.
 * `onProviderPage` sees the provider's login page before it is filled in.
 */
export async function signInWithPopup(
  page: Page,
  account: DemoAccount = marketer,
  screenshotPath?: string,
  onProviderPage?: (popup: Page) => Promise<void>,
) {
  await page.goto('/login');
  await page.getByRole('heading', { name: 'Sign in with your Microsoft account' }).waitFor();
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  await popup.getByLabel('Email').waitFor();
  if (screenshotPath) await popup.screenshot({ path: screenshotPath });
  await onProviderPage?.(popup);
  await fillProviderLogin(popup, account);
  await popup.waitForEvent('close', { timeout: 15_000 });
  await page.waitForURL((url) => url.pathname === '/');
}

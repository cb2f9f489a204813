/**
 * Signs the page in as the demo marketer through the embedded provider's popup, as a person
 * does from /login (the same steps as e2e/support/sign-in.ts).
 * @param {import('playwright-core').Page} page
 */
export async function signInAsMarketer(page) {
  await page.goto('/login');
  await page.getByRole('heading', { name: 'Sign in with your Microsoft account' }).waitFor();
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  await popup.getByLabel('Email').fill('marketer@example.com');
  await popup.getByLabel('Password').fill('marketer');
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await popup.waitForEvent('close', { timeout: 15_000 });
  await page.waitForURL((url) => url.pathname === '/');
}

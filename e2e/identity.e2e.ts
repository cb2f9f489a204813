import { webRoutePatterns } from '@gem/contracts/web-routes';
import { describe, expect, it } from 'vitest';
import { pageProblems, screenshot, useBrowser } from './support/browser';
import { fillProviderLogin, marketer, outsider, signInWithPopup } from './support/sign-in';

const browser = useBrowser();

describe('sign-in and the access gate', () => {
  it('sends a signed-out visitor from every gated page to /login', async () => {
    const page = await browser.open('desktop');
    const publicPages = ['/login', '/register', '/logout', '/tools/qr-code-generator'];
    const gated = webRoutePatterns
      .filter((p) => !publicPages.includes(p))
      .map((p) =>
        p
          .replace(':marketId', 'priority-clients')
          .replace(':subMarketId', 'orlen')
          .replace(':briefId', 'b1')
          .replace(':campaignId', 'c1'),
      );
    expect(gated.length).toBe(webRoutePatterns.length - publicPages.length);
    for (const path of gated) {
      await page.goto(path);
      await page.waitForURL('**/login', { timeout: 10_000 });
      await page.getByRole('heading', { name: 'Sign in with your Microsoft account' }).waitFor();
    }
    // The free tools are listed on the sign-in page.
    expect(await page.getByRole('link', { name: /QR code generator/ }).count()).toBeGreaterThan(0);
    await screenshot(page, 'login-desktop');
    expect(pageProblems(page)).toEqual([]);
  });

  it('opens the QR code generator signed out', async () => {
    const page = await browser.open('mobile');
    await page.goto('/tools/qr-code-generator');
    await page.getByText('QR code generator').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/tools/qr-code-generator');
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in with your Microsoft account' }).waitFor();
    await screenshot(page, 'login-mobile');
  });

  it('signs the marketer in with a real popup, keeps the session over a reload, and logs out to /login', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page, marketer, 'e2e/artifacts/provider-login.png');
    await page
      .getByRole('heading', { level: 1, name: 'Welcome to Generative and enhanced marketing' })
      .waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Logout' }).waitFor();

    // The access token lives in memory only; local storage has the account and no access token.
    const stored = await page.evaluate(() =>
      Object.entries(localStorage).filter(([k]) => k.includes('user')),
    );
    expect(stored).toHaveLength(1);
    const record = JSON.parse(stored[0]?.[1] ?? '{}') as Record<string, unknown>;
    expect(record.access_token).toBe('');
    expect(record.refresh_token).toBeTruthy();
    const cookies = await page.context().cookies();
    expect(cookies.filter((c) => c.path === '/' && /token|user|account/i.test(c.name))).toEqual([]);

    await page.reload();
    await page
      .getByRole('heading', { level: 1, name: 'Welcome to Generative and enhanced marketing' })
      .waitFor();
    await nav.getByRole('link', { name: 'Logout' }).waitFor();
    await page.goto('/tools');
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();

    await nav.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL('**/login', { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Sign in with your Microsoft account' }).waitFor();
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('user')))).toEqual(
      [],
    );
    // Signed out for real: a gated page sends us back.
    await page.goto('/tools');
    await page.waitForURL('**/login');
  });

  it('shows the outsider the Access Denied screen with the three contacts', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page, outsider);
    await page.getByText('Access Denied: You are not permitted to use this application.').waitFor();
    const contacts = await page.locator('a[href^="mailto:"]').evaluateAll((links) => links.length);
    expect(contacts).toBe(3);
    expect(await page.getByRole('link', { name: /QR code generator/ }).count()).toBeGreaterThan(0);
    await screenshot(page, 'access-denied-desktop');
  });

  it('falls back to a redirect sign-in when the popup is blocked', async () => {
    const page = await browser.open('mobile');
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/oidc/**');
    await fillProviderLogin(page, marketer);
    await page.waitForURL((url) => url.pathname === '/' && !url.search.includes('code='), {
      timeout: 15_000,
    });
    await page
      .getByRole('heading', { level: 1, name: 'Welcome to Generative and enhanced marketing' })
      .waitFor();
    await screenshot(page, 'home-signed-in-mobile');
  });

  it('says "Invalid email or password" on a wrong password, keeping the e-mail', async () => {
    const page = await browser.open('desktop');
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/oidc/**');
    await fillProviderLogin(page, { email: marketer.email, password: 'wrong-password' });
    await page.getByText('Invalid email or password').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(marketer.email);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    await screenshot(page, 'provider-login-error');
  });

  it('/register explains where registration went and moves on to /login after 5 s', async () => {
    const page = await browser.open('desktop');
    // The page's own clock, moved by the test: the 5 s pass in no time.
    await page.clock.install();
    await page.goto('/register');
    await page.getByRole('link', { name: 'Go to Login' }).waitFor();
    await page.getByText('Taking you to the sign-in page in 5 s.').waitFor();
    await page.clock.runFor(4_000);
    await page.getByText('Taking you to the sign-in page in 1 s.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/register');
    await page.clock.runFor(1_000);
    await page.waitForURL('**/login');
  });
});

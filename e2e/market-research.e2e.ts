import { marketAreas } from '@gem/contracts/catalogue';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageProblems, screenshot, useBrowser } from './support/browser';
import { signInWithPopup } from './support/sign-in';

// The e2e server runs with the bundled sample feeds (apps/server/feed-samples), read at start,
// except real_estate, which has no feed configured (e2e/support/global-setup.ts).
const browser = useBrowser();

const MON_DD = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2}$/;

/** The feed's items, once the first page has arrived (the server reads the samples at start). */
async function feedItems(page: Page, name: string) {
  const list = page.getByRole('list', { name: `${name} news`, exact: true });
  await list.locator('article').first().waitFor({ timeout: 15_000 });
  return list.locator('article');
}

/** What one item shows: title, date, source, whether it has a picture, and its link. */
function describeItems(page: Page, name: string) {
  return page.getByRole('list', { name: `${name} news`, exact: true }).evaluate((list) =>
    [...list.querySelectorAll('article')].map((article) => {
      const link = article.querySelector('a');
      const meta = [...(article.querySelector('p')?.children ?? [])].map((c) => c.textContent ?? '');
      return {
        title: article.querySelector('h3')?.firstChild?.textContent ?? '',
        date: meta[0] ?? '',
        source: meta[2] ?? '',
        image: article.querySelector('img') !== null,
        blank: article.querySelector('[data-testid="blank-image"]') !== null,
        href: link?.getAttribute('href') ?? '',
        target: link?.getAttribute('target') ?? '',
        rel: link?.getAttribute('rel') ?? '',
      };
    }),
  );
}

describe('Market Research', () => {
  it('lists the eleven areas, opens an area, a client, Creator and Return, and refuses an unknown market', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page);
    await page.goto('/market-research');
    await page.getByRole('heading', { level: 1, name: 'Market Research' }).waitFor();
    const areaList = page.getByRole('list', { name: 'All market areas' });
    const links = await areaList
      .locator('a')
      .evaluateAll((as) => as.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));
    expect(links).toEqual(marketAreas.map((a) => [a.name, `/market-research/${a.slug}`]));
    expect(links).toHaveLength(11);
    await screenshot(page, 'market-research-desktop');

    await areaList.getByRole('link', { name: 'Priority clients' }).click();
    await page.waitForURL('**/market-research/priority-clients');
    await page.getByRole('heading', { level: 1, name: 'Priority clients' }).waitFor();
    const clients = page.getByRole('navigation', { name: 'Looking for in-depth info on a specific client?' });
    const clientLinks = await clients
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(clientLinks).toHaveLength(13);
    expect(clientLinks).toContainEqual(['Żabka', '/market-research/priority-clients/zabka']);
    expect(clientLinks).toContainEqual(['PKO BP', '/market-research/priority-clients/pko-bp']);
    await feedItems(page, 'Priority clients');
    // Sample content says so, once above the list and on each item.
    await page.getByRole('note').getByText('Sample content.').waitFor();
    expect(await page.getByText('Sample', { exact: true }).count()).toBeGreaterThan(0);
    await page.getByText(/^Last refreshed /).waitFor();
    await screenshot(page, 'market-area-desktop');

    // A sub-area: its own feed, the area panel still there, its client marked.
    await clients.getByRole('link', { name: 'Orlen' }).click();
    await page.waitForURL('**/market-research/priority-clients/orlen');
    await page.getByRole('heading', { level: 2, name: 'Orlen' }).waitFor();
    expect(await clients.getByRole('link', { name: 'Orlen' }).getAttribute('aria-current')).toBe('page');
    const orlen = await feedItems(page, 'Orlen');
    expect(await orlen.count()).toBeGreaterThan(0);
    expect(await page.title()).toContain('Orlen');
    await screenshot(page, 'market-sub-area-desktop');

    await page.getByRole('link', { name: 'Creator' }).click();
    await page.waitForURL((url) => url.pathname === '/tools');
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Return' }).click();
    await page.waitForURL((url) => url.pathname === '/market-research');
    await page.getByRole('heading', { level: 1, name: 'Market Research' }).waitFor();

    // An area with no feed in the feeds file says so instead of showing an empty list.
    await page.goto('/market-research/real_estate');
    await page.getByRole('heading', { level: 1, name: 'Real estate' }).waitFor();
    await page.getByRole('heading', { name: 'No feed configured' }).waitFor();
    expect(await page.locator('article').count()).toBe(0);

    // An unknown area or client: the wrong-URL message with a way back to /login.
    for (const path of [
      '/market-research/no-such-area',
      '/market-research/priority-clients/no-such-client',
      '/market-research/technology/orlen',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: 'Url you provided is wrong' }).waitFor();
      expect(await page.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
    }
    await screenshot(page, 'market-not-found-desktop');
    await page.getByRole('link', { name: 'Back to login' }).click();
    await page.waitForURL((url) => url.pathname === '/login' || url.pathname === '/');
    expect(pageProblems(page)).toEqual([]);

    // A load that keeps failing (the API unavailable) ends, after the retries, the same way.
    await page.route('**/api/markets/esg?*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
    );
    await page.goto('/market-research/esg');
    await page.getByRole('heading', { level: 1, name: 'ESG' }).waitFor();
    await page
      .getByRole('heading', { level: 1, name: 'Url you provided is wrong' })
      .waitFor({ timeout: 15_000 });
    expect(await page.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
    expect(pageProblems(page).filter((p) => !p.includes('status of 503'))).toEqual([]);
  }, 45_000);

  it('renders each item by the rules (date, source, picture, new tab), searches, and loads more on scroll', async () => {
    const page = await browser.open('desktop');
    await signInWithPopup(page);
    // The area's first page as the API answers it: the dates the page shows come from it.
    const firstPage = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/markets/polish_business',
    );
    await page.goto('/market-research/polish_business');
    await page.getByRole('heading', { level: 1, name: 'Polish business' }).waitFor();
    const apiItems = (
      (await (await firstPage).json()) as { items: { title: string; date_published: string | null }[] }
    ).items;
    expect(await page.getByRole('navigation', { name: /specific client/ }).count()).toBe(0);
    await feedItems(page, 'Polish business');

    const items = await describeItems(page, 'Polish business');
    // The first page; the area has 36 sample items.
    expect(items).toHaveLength(30);
    for (const item of items) {
      expect(item.date).toMatch(MON_DD);
      expect(item.source).toBe('warsaw-markets.example');
      expect(item.href).toMatch(/^https:\/\/www\.warsaw-markets\.example\//);
      expect(item.target).toBe('_blank');
      expect(item.rel).toBe('noopener noreferrer');
      expect(item.image !== item.blank).toBe(true);
    }
    // The newest sample is dated the day before the server read the samples (their dates move
    // with the calendar): within two days before now, whatever the hour, midnight included. The
    // page shows that date in the browser's time zone.
    expect(items[0]).toMatchObject({ title: 'Industrial output grows for the third month in a row' });
    const published = apiItems.find((i) => i.title === items[0]?.title)?.date_published ?? '';
    const age = Date.now() - Date.parse(published);
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(2 * 24 * 60 * 60 * 1000);
    const shown = await page.evaluate((iso) => {
      const d = new Date(iso);
      return `${d.toLocaleString('en-US', { month: 'short' })} ${String(d.getDate()).padStart(2, '0')}`;
    }, published);
    expect(items[0]?.date).toBe(shown);
    // An item without a picture gets the blank box.
    expect(items.find((i) => i.title === 'Rail freight operators invest in new locomotives')).toMatchObject({
      image: false,
      blank: true,
    });
    // Every picture shown has loaded (none broken).
    const broken = await page
      .locator('main article img')
      .evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.src),
      );
    expect(broken).toEqual([]);

    // An item opens in a new tab; GEM stays where it was.
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: /Industrial output grows/ }).click(),
    ]);
    expect(tab).toBeDefined();
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
    expect(new URL(page.url()).pathname).toBe('/market-research/polish_business');

    // Scrolling to the end loads the next page, without pressing the button.
    const nextPage = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/markets/polish_business' && url.searchParams.has('cursor');
    });
    await page.mouse.move(900, 500);
    await page.mouse.wheel(0, 100_000);
    expect((await nextPage).ok()).toBe(true);
    await page.getByText('You have reached the end of this feed.').waitFor();
    expect(await page.locator('main article').count()).toBe(36);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // Search: full text, by word prefix, ignoring accents ("lodz" finds "Łódź").
    await page.evaluate(() => window.scrollTo(0, 0));
    const search = page.getByRole('searchbox', { name: 'Search Polish business news' });
    await search.fill('lodz');
    await page.waitForURL((url) => url.searchParams.get('q') === 'lodz');
    const lodz = page.getByRole('list', { name: 'Polish business news matching lodz' });
    await lodz.locator('article').first().waitFor();
    expect(await lodz.locator('h3').allInnerTexts()).toEqual([
      expect.stringContaining('Logistics parks near Łódź') as unknown as string,
    ]);
    await search.fill('bake');
    await page.getByRole('list', { name: 'Polish business news matching bake' }).waitFor();
    expect(
      await page
        .getByRole('list', { name: 'Polish business news matching bake' })
        .locator('h3')
        .allInnerTexts(),
    ).toEqual([expect.stringContaining('bakery chain') as unknown as string]);
    await search.fill('zzqx nothing');
    await page.getByRole('heading', { name: /No items match/ }).waitFor();
    // The search survives a reload (it is in the address).
    await page.reload();
    expect(await page.getByRole('searchbox').inputValue()).toBe('zzqx nothing');
    await page.getByRole('heading', { name: /No items match/ }).waitFor();
    await search.fill('');
    await feedItems(page, 'Polish business');

    // The pwc area (the social network) names the first author as the source.
    await page.goto('/market-research/pwc');
    await feedItems(page, 'PwC');
    const pwc = await describeItems(page, 'PwC');
    expect(pwc[0]).toMatchObject({ source: 'Anna Nowicka' });
    expect(pwc[0]?.href).toMatch(/^https:\/\/social\.example\//);
    for (const item of pwc) expect(item.source).not.toContain('social.example');
    expect(pwc.some((i) => i.blank)).toBe(true);

    // A host with "www." drops it; an item without a date says so.
    await page.goto('/market-research/priority-clients/stock-spirits');
    await feedItems(page, 'Stock Spirits');
    const spirits = await describeItems(page, 'Stock Spirits');
    expect(spirits.map((i) => i.date)).toContain('no date');
    for (const item of spirits) expect(item.date).toMatch(item.date === 'no date' ? /.*/ : MON_DD);
    await page.goto('/market-research/priority-clients/citi');
    await feedItems(page, 'Citi');
    const citi = await describeItems(page, 'Citi');
    const wwwItem = citi.find((i) => new URL(i.href).hostname.startsWith('www.'));
    expect(wwwItem?.source).toBe(new URL(wwwItem?.href ?? 'http://x').hostname.slice(4));
    expect(pageProblems(page)).toEqual([]);
  }, 45_000);

  it('fits a phone: the list, an area and a sub-area (mobile)', async () => {
    const page = await browser.open('mobile');
    await signInWithPopup(page);
    for (const [path, name, shot] of [
      ['/market-research', null, 'market-research-mobile'],
      ['/market-research/priority-clients', 'Priority clients', 'market-area-mobile'],
      ['/market-research/priority-clients/zabka', 'Żabka', 'market-sub-area-mobile'],
    ] as const) {
      await page.goto(path);
      if (name) await feedItems(page, name);
      else await page.getByRole('heading', { level: 1, name: 'Market Research' }).waitFor();
      // Nothing is wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, shot);
    }
    expect(pageProblems(page)).toEqual([]);
  });
});

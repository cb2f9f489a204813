import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageProblems, screenshot, useBrowser, viewports } from './support/browser';
import { signInWithPopup } from './support/sign-in';

// The e2e server runs without crawling, so the index holds the bundled sample corpus
// (apps/server/competitor-samples): fictional pages on the six competitors' Polish sites.
const browser = useBrowser();

const path = '/tools/competitor-search';
/** A topic the sample corpus covers on every site, with more than a page of results in 90 days. */
const QUERY = 'ESG';

const results = (page: Page) => page.getByRole('list', { name: /^Results for / });

/** The search requests the page sends, as their bodies. */
function recordSearches(page: Page) {
  const bodies: Record<string, unknown>[] = [];
  page.on('request', (request: Request) => {
    if (isSearch(request)) bodies.push(request.postDataJSON() as Record<string, unknown>);
  });
  return bodies;
}

const isSearch = (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname === '/api/brief/search-competitor-content';

/**
 * Runs what starts a search and waits for its answer to be shown. The address changes before
 * React renders the new search, so waiting for the address alone can still see the last
 * search's results; the request is sent only once the new search is on the page.
 */
async function submit(page: Page, action: () => Promise<unknown>) {
  const answered = page.waitForResponse((response) => isSearch(response.request()));
  await action();
  await answered;
  await searched(page);
}

/** Waits for a search's answer to be shown: results, or one of the empty states. */
async function searched(page: Page) {
  await page
    .locator('main')
    .getByText(/^([\d,]+\+? results|1 result) \([\d.]+ seconds\)$|^No pages match/)
    .first()
    .waitFor({ timeout: 15_000 });
}

describe('Competitor search', () => {
  it('searches the sample corpus, filters by competitor and window, loads more, opens a result, and keeps the search in the address', async () => {
    const page = await browser.open('desktop');
    const sent = recordSearches(page);
    await signInWithPopup(page);
    // A result opens the competitor's page in a new tab; there is no network here, so any
    // address that is not GEM's answers with a stand-in page.
    const gem = new URL(browser.baseURL()).origin;
    await page.context().route(
      (url) => url.origin !== gem,
      (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Competitor page</title>' }),
    );

    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: 'Competitor search' }).waitFor();
    // Before a search: what the tool does, examples, and how fresh the index is.
    await page.getByRole('heading', { name: 'See what competitors publish on a topic' }).waitFor();
    await page.getByText(/^Sample corpus: [\d,]+ pages from 6 competitors/).waitFor();
    expect(await page.getByRole('note').textContent()).toContain('These pages are fictional');
    const search = page.getByRole('button', { name: 'Search', exact: true });
    expect(await search.isDisabled()).toBe(true);
    await screenshot(page, 'competitor-search-intro-desktop');

    // Search: all competitors, the last 90 days, by date.
    await page.getByRole('searchbox', { name: 'Topic or words' }).fill(QUERY);
    await submit(page, () => search.click());
    await results(page).locator('article').first().waitFor();
    expect(sent.at(-1)).toEqual({
      query: QUERY,
      num: 10,
      start: 1,
      dateRestrict: 'd90',
      sort: 'date',
      siteSearch: null,
    });
    expect(new URL(page.url()).searchParams.get('q')).toBe(QUERY);
    expect(await page.getByText(/^[\d,]+\+? results \([\d.]+ seconds\)$|^1 result/).count()).toBe(1);
    const cards = results(page).locator('article');
    expect(await cards.count()).toBeGreaterThan(0);
    // Sample pages say so; matched words are marked.
    expect(await cards.first().getByText('Sample', { exact: true }).count()).toBe(1);
    expect(await results(page).locator('mark').count()).toBeGreaterThan(0);
    // The chart, with its table for screen readers.
    const chart = page.getByRole('figure', { name: 'Matching pages per week, by competitor' });
    await chart.waitFor();
    expect(await chart.getByRole('table').locator('tbody tr').count()).toBeGreaterThanOrEqual(13);
    await screenshot(page, 'competitor-search-desktop');

    // A longer window: the last 26 weeks. Load More Results appends the next page, and is gone
    // at the end.
    await page.getByRole('combobox', { name: 'Unit' }).selectOption({ label: 'Weeks' });
    await page.getByRole('textbox', { name: 'Number of weeks' }).fill('26');
    await submit(page, () => search.click());
    expect(new URL(page.url()).searchParams.get('window')).toBe('w26');
    expect(sent.at(-1)).toMatchObject({ query: QUERY, start: 1, dateRestrict: 'w26', siteSearch: null });
    await page.waitForFunction(
      () => document.querySelectorAll('main ol[aria-label^="Results for"] article').length === 10,
    );
    await page.getByRole('button', { name: 'Load More Results' }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('main ol[aria-label^="Results for"] article').length > 10,
    );
    expect(sent.at(-1)).toMatchObject({ query: QUERY, start: 11, dateRestrict: 'w26' });
    while ((await page.getByRole('button', { name: 'Load More Results' }).count()) > 0) {
      const before = await cards.count();
      await page.getByRole('button', { name: 'Load More Results' }).click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('main ol[aria-label^="Results for"] article').length > n,
        before,
      );
    }
    await page.getByText(/results? shown: that is all of them\.$/).waitFor();
    await screenshot(page, 'competitor-search-all-desktop');

    // A result opens in a new tab, without a way back to GEM (no opener).
    const readMore = cards.first().getByRole('link', { name: /^Read More/ });
    const href = await readMore.getAttribute('href');
    expect(await readMore.getAttribute('rel')).toBe('noopener noreferrer');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), readMore.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(href);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
    expect(new URL(page.url()).pathname).toBe(path);

    // One competitor: its siteSearch is sent, and every result is on its site.
    await page.getByRole('combobox', { name: 'Competitor' }).selectOption({ label: 'Deloitte' });
    await submit(page, () => search.click());
    expect(new URL(page.url()).searchParams.get('site')).toBe('www.deloitte.com/pl/pl/');
    expect(sent.at(-1)).toMatchObject({ query: QUERY, start: 1, siteSearch: 'www.deloitte.com/pl/pl/' });
    for (const meta of await results(page).locator('article p:first-of-type').allTextContents()) {
      // The firm, then deloitte.com, or deloitte.example for the sample pages.
      expect(meta).toMatch(/^Deloitte·([\w-]+\.)*deloitte\.\w+·/);
    }

    // The window in days.
    await page.getByRole('combobox', { name: 'Unit' }).selectOption({ label: 'Days' });
    await page.getByRole('textbox', { name: 'Number of days' }).fill('60');
    await submit(page, () => search.click());
    expect(new URL(page.url()).searchParams.get('window')).toBe('d60');
    expect(sent.at(-1)).toMatchObject({ dateRestrict: 'd60', siteSearch: 'www.deloitte.com/pl/pl/' });

    // An invalid number is explained beside the field, and nothing is sent.
    const count = sent.length;
    await page.getByRole('textbox', { name: 'Number of days' }).fill('0');
    await page.getByText('The number of days must be at least 1.').waitFor();
    expect(await search.isDisabled()).toBe(true);
    expect(sent).toHaveLength(count);

    // Back returns to the search before (Deloitte, the last 26 weeks), with its fields.
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('window') === 'w26');
    // Back may answer from the cache, without a request: wait for the fields to follow.
    await expect.poll(() => page.getByRole('textbox', { name: 'Number of weeks' }).inputValue()).toBe('26');
    await searched(page);
    expect(await page.getByRole('combobox', { name: 'Competitor' }).inputValue()).toBe(
      'www.deloitte.com/pl/pl/',
    );

    // The search survives a reload.
    await page.reload();
    await searched(page);
    expect(await page.getByRole('searchbox', { name: 'Topic or words' }).inputValue()).toBe(QUERY);

    // Nothing matches: the no-results state offers its ways out.
    await page.getByRole('searchbox', { name: 'Topic or words' }).fill('zzqx nothing here');
    await search.click();
    await page
      .getByRole('heading', { name: 'No pages match “zzqx nothing here”' })
      .waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Search all competitors' }).waitFor();
    await page.getByRole('button', { name: 'Search all competitors' }).click();
    await page.waitForURL((url) => !url.searchParams.has('site'));
    await page.getByRole('heading', { name: 'No pages match “zzqx nothing here”' }).waitFor();
    expect(pageProblems(page)).toEqual([]);
  }, 60_000);

  it('fits a phone: the form stacks, cards and chart take the width (mobile)', async () => {
    const page = await browser.open('mobile');
    await signInWithPopup(page);
    await page.goto(`${path}?q=${encodeURIComponent(QUERY)}&window=d90`);
    await searched(page);
    await results(page).locator('article').first().waitFor();
    await page.getByRole('figure', { name: 'Matching pages per week, by competitor' }).waitFor();
    // Nothing is wider than the screen; the search button and the cards take the full width.
    await page.waitForFunction(() => document.querySelector('figure svg[aria-hidden="true"]') !== null);
    const tooWide = await page.evaluate(() =>
      [...document.querySelectorAll('main *')]
        // What is visually hidden is clipped to a pixel, whatever its content measures.
        .filter((e) => !e.closest('.visually-hidden') && e.getBoundingClientRect().right > 390.5)
        .map((e) => `${e.tagName.toLowerCase()}.${String(e.getAttribute('class'))}`),
    );
    expect(tooWide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const query = await page.getByRole('searchbox', { name: 'Topic or words' }).boundingBox();
    const button = await page.getByRole('button', { name: 'Search', exact: true }).boundingBox();
    expect(button!.y).toBeGreaterThan(query!.y + query!.height - 1);
    expect(Math.abs(button!.width - query!.width)).toBeLessThan(2);
    const card = await results(page).locator('article').first().boundingBox();
    expect(card!.width).toBeGreaterThan(320);
    const svg = await page.locator('figure svg[aria-hidden="true"]').last().boundingBox();
    expect(svg!.width).toBeLessThanOrEqual(390);
    expect(svg!.width).toBeGreaterThan(250);
    await screenshot(page, 'competitor-search-mobile');
    expect(pageProblems(page)).toEqual([]);
  });

  for (const width of ['desktop', 'mobile'] as const) {
    it(`brings the results into view after a suggested topic and a search, and keeps each firm's colour from search to search (${width})`, async () => {
      const page = await browser.open(width);
      await signInWithPopup(page);
      await page.goto(path);
      await page.getByRole('heading', { name: 'See what competitors publish on a topic' }).waitFor();

      // A suggested topic: its results, not the form, are on screen.
      await submit(page, () => page.getByRole('button', { name: 'cyberbezpieczeństwo' }).click());
      await firstCardInView(page, width);
      await screenshot(page, `competitor-search-topic-in-view-${width}`, { fullPage: false });

      // Two searches with different firms in them (EY was blue in one and green in the other).
      const colours: Record<string, string>[] = [];
      for (const query of ['audyt', 'raport']) {
        await page.getByRole('searchbox', { name: 'Topic or words' }).fill(query);
        await submit(page, () => page.getByRole('button', { name: 'Search', exact: true }).click());
        await firstCardInView(page, width);
        await screenshot(page, `competitor-search-${query}-in-view-${width}`, { fullPage: false });
        await page.getByRole('figure', { name: 'Matching pages per week, by competitor' }).waitFor();
        const legend = await firmColours(page);
        // Each card's dot is its firm's colour in the chart.
        for (const [firm, colour] of Object.entries(await cardColours(page))) {
          expect(colour, `${firm}'s card in "${query}"`).toBe(legend[firm]);
        }
        colours.push(legend);
      }
      const [audyt, raport] = colours as [Record<string, string>, Record<string, string>];
      expect(Object.keys(raport)).toContain('Deloitte');
      expect(Object.keys(audyt)).not.toContain('Deloitte');
      const both = Object.keys(audyt).filter((firm) => firm in raport);
      expect(both).toContain('EY');
      for (const firm of both) expect(raport[firm], firm).toBe(audyt[firm]);
      // One colour per firm, and the brand orange for GEM's own firm only.
      expect(new Set(Object.values(raport)).size).toBe(Object.keys(raport).length);
      expect(Object.entries(raport).filter(([, c]) => c === '#fd5108')).toEqual([['PwC', '#fd5108']]);

      // Beside 'Load More Results': how far through the results the list is.
      const more = page.getByRole('button', { name: 'Load More Results' });
      const shown = page.getByText(/^\d+ of [\d,]+ shown$/);
      await shown.waitFor();
      const total = Number((await page.getByText(/^[\d,]+ results \(/).textContent())?.match(/^[\d,]+/)?.[0]);
      expect(await shown.textContent()).toBe(`10 of ${total} shown`);
      const [button, text] = [await more.boundingBox(), await shown.boundingBox()];
      // On one line with the button, beside it.
      expect(Math.abs(button!.y + button!.height / 2 - (text!.y + text!.height / 2))).toBeLessThan(4);
      expect(text!.x).toBeGreaterThan(button!.x + button!.width);
      await more.click();
      await page.getByText(`20 of ${total} shown`).waitFor();
      await shown.scrollIntoViewIfNeeded();
      await screenshot(page, `competitor-search-raport-${width}`);
      expect(pageProblems(page)).toEqual([]);
    }, 60_000);
  }
});

/** Waits until the first result card's title is on screen, below the sticky header. */
async function firstCardInView(page: Page, width: 'desktop' | 'mobile') {
  const title = results(page).locator('article h3').first();
  await title.waitFor();
  // A smooth scroll takes a moment: wait for it to arrive.
  await expect
    .poll(
      async () => {
        const header = await page.locator('header').first().boundingBox();
        const box = await title.boundingBox();
        return (
          box !== null &&
          header !== null &&
          box.y >= header.y + header.height &&
          box.y + box.height <= viewports[width].height
        );
      },
      { timeout: 5_000 },
    )
    .toBe(true);
  // And the scroll has come to rest (for the screenshot): the same position for a few frames.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = -1;
        let still = 0;
        const tick = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 5) resolve();
          else requestAnimationFrame(tick);
        };
        tick();
      }),
  );
}

/** Each firm's colour in the chart's legend. */
function firmColours(page: Page): Promise<Record<string, string>> {
  return page
    .getByRole('figure', { name: 'Matching pages per week, by competitor' })
    .locator('li')
    .evaluateAll((items) =>
      Object.fromEntries(
        items.map((li) => [li.textContent ?? '', li.querySelector('rect')?.getAttribute('fill') ?? '']),
      ),
    );
}

/** Each firm's dot colour on the result cards (the same firm's cards agree, or it is listed twice). */
function cardColours(page: Page): Promise<Record<string, string>> {
  return results(page)
    .locator('article')
    .evaluateAll((cards) => {
      const seen: Record<string, string> = {};
      for (const card of cards) {
        const dot = card.querySelector('p svg circle');
        const firm = dot?.closest('span')?.textContent ?? '';
        const fill = dot?.getAttribute('fill') ?? '';
        seen[firm] = seen[firm] && seen[firm] !== fill ? `${seen[firm]} and ${fill}` : fill;
      }
      return seen;
    });
}

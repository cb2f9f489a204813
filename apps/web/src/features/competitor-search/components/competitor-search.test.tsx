import {
  competitorSearchPaths,
  competitorSearchRequestSchema,
  type CompetitorSearchItem,
  type CompetitorSearchResponse,
  type CompetitorsResponse,
  type CompetitorStatus,
  type ParsedCompetitorSearchRequest,
} from '@gem/contracts/competitor-search';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { formatInteger } from '@/lib/format-number';
import { gate, json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { brandColour, seriesPalette } from '../chart-data';

const competitor = (key: string, name: string, site: string, extra: Partial<CompetitorStatus> = {}) => ({
  key,
  name,
  site,
  siteSearch: site.replace(/^https:\/\//, ''),
  pages: 80,
  lastCrawledAt: '2026-03-02T08:15:00Z',
  lastError: null,
  ...extra,
});

const competitors = (
  extra: Partial<CompetitorsResponse> = {},
  each: Partial<CompetitorStatus> = {},
): CompetitorsResponse => ({
  competitors: [
    competitor('deloitte', 'Deloitte', 'https://www.deloitte.com/pl/pl/', each),
    competitor('pwc', 'PwC', 'https://www.pwc.pl/pl/', each),
    competitor('kpmg', 'KPMG', 'https://kpmg.com/pl/pl/', { lastCrawledAt: '2026-03-01T08:15:00Z', ...each }),
  ],
  provider: 'index',
  sample: false,
  crawling: true,
  ...extra,
});

const item = (n: number, extra: Partial<CompetitorSearchItem> = {}): CompetitorSearchItem => ({
  title: `Raport ${n}`,
  displayLink: 'deloitte.com',
  snippet: `Pierwszy raport ESG numer ${n}.`,
  link: `https://www.deloitte.com/pl/pl/raport-${n}.html`,
  snippetParts: [
    { text: 'Pierwszy raport ', match: false },
    { text: 'ESG', match: true },
    { text: ` numer ${n}.`, match: false },
  ],
  publishedAt: '2026-03-02T12:00:00Z',
  competitorKey: 'deloitte',
  sample: false,
  ...extra,
});

/** A page as the server answers: `start` and how many there are in all decide the next page. */
function page(
  items: CompetitorSearchItem[],
  {
    start = 1,
    total = items.length,
    weeklyCounts,
    capped = false,
  }: {
    start?: number;
    total?: number;
    weeklyCounts?: CompetitorSearchResponse['weeklyCounts'];
    capped?: boolean;
  } = {},
): CompetitorSearchResponse {
  const next = start + items.length;
  return {
    items,
    searchInformation: {
      formattedTotalResults: `${formatInteger(total)}${capped ? '+' : ''}`,
      formattedSearchTime: '0.04',
      totalResults: total,
      ...(capped ? { totalCapped: true } : {}),
    },
    queries: next <= total ? { nextPage: [{ startIndex: next }] } : {},
    ...(weeklyCounts ? { weeklyCounts } : {}),
  };
}

type Reply = { status?: number; body: unknown; until?: Promise<unknown> };

let competitorsReply: () => Reply;
let searchReply: (request: ParsedCompetitorSearchRequest) => Reply;
/** The search requests' bodies, as sent. */
let sent: unknown[];

const server = serveApi();

beforeEach(() => {
  sent = [];
  competitorsReply = () => ({ body: competitors() });
  searchReply = (request) => ({ body: page([item(request.start)], { start: request.start }) });
  server.on('GET', competitorSearchPaths.competitors, (_req, _body, res) => {
    const { status = 200, body } = competitorsReply();
    json(res, status, body);
  });
  server.on('POST', competitorSearchPaths.search, async (_req, raw, res) => {
    const body: unknown = JSON.parse(raw);
    sent.push(body);
    // As the real route does: the contract's schema checks the request first.
    const parsed = competitorSearchRequestSchema.safeParse(body);
    if (!parsed.success) {
      return json(res, 400, { error: { code: 'validation_failed', message: parsed.error.message } });
    }
    const { status = 200, body: answer, until } = searchReply(parsed.data);
    if (until) await until;
    json(res, status, answer);
  });
});

const path = '/tools/competitor-search';
const queryBox = () => screen.getByRole('searchbox', { name: 'Topic or words' });
const searchButton = () => screen.getByRole('button', { name: 'Search' });
const results = () => screen.getByRole('list', { name: /^Results for / });
const titles = () =>
  within(results())
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);

async function renderPage(at = path) {
  const view = renderRoute(at);
  await screen.findByRole('heading', { level: 1, name: 'Competitor search' });
  return view;
}

describe('the competitor search form', () => {
  it('keeps Search disabled while the query is blank', async () => {
    const { user } = await renderPage();
    expect(searchButton()).toBeDisabled();
    await user.type(queryBox(), '   ');
    expect(searchButton()).toBeDisabled();
    await user.type(queryBox(), 'ESG');
    expect(searchButton()).toBeEnabled();
    expect(sent).toEqual([]);
  });

  it('sends the spec request: 10 a page from 1, the last 90 days by date, all competitors', async () => {
    const { user, router } = await renderPage();
    await user.type(queryBox(), '  ESG reporting ');
    await user.click(searchButton());
    await screen.findByText('Raport 1');
    expect(sent).toEqual([
      { query: 'ESG reporting', num: 10, start: 1, dateRestrict: 'd90', sort: 'date', siteSearch: null },
    ]);
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      q: 'ESG reporting',
      window: 'd90',
    });
  });

  it("sends the chosen competitor's siteSearch, the window in weeks or days, and the sort", async () => {
    const { user, router } = await renderPage();
    const select = await screen.findByRole('combobox', { name: 'Competitor' });
    await within(select).findByRole('option', { name: 'KPMG' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All competitors', 'Deloitte', 'PwC', 'KPMG']);
    await user.type(queryBox(), 'audyt');
    await user.selectOptions(select, 'KPMG');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Unit' }), 'Weeks');
    // 90 days are about 13 weeks.
    expect(screen.getByRole('textbox', { name: 'Number of weeks' })).toHaveValue('13');
    await user.clear(screen.getByRole('textbox', { name: 'Number of weeks' }));
    await user.type(screen.getByRole('textbox', { name: 'Number of weeks' }), '6');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Relevance');
    await user.click(searchButton());
    await screen.findByText('Raport 1');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Unit' }), 'Days');
    await user.clear(screen.getByRole('textbox', { name: 'Number of days' }));
    await user.type(screen.getByRole('textbox', { name: 'Number of days' }), '30');
    await user.click(searchButton());
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent).toEqual([
      {
        query: 'audyt',
        num: 10,
        start: 1,
        dateRestrict: 'w6',
        sort: 'relevance',
        siteSearch: 'kpmg.com/pl/pl/',
      },
      {
        query: 'audyt',
        num: 10,
        start: 1,
        dateRestrict: 'd30',
        sort: 'relevance',
        siteSearch: 'kpmg.com/pl/pl/',
      },
    ]);
    expect(router.state.location.search).toBe(
      '?q=audyt&site=kpmg.com%2Fpl%2Fpl%2F&window=d30&sort=relevance',
    );
  });

  it.each([
    ['0', 'days', 'The number of days must be at least 1.'],
    ['', 'days', 'Enter the number of days, at least 1.'],
    ['1.5', 'days', 'Enter a whole number of days, like 30.'],
    ['3651', 'days', 'At most 3,650 days (about ten years).'],
    ['0', 'weeks', 'The number of weeks must be at least 1.'],
    ['521', 'weeks', 'At most 520 weeks (about ten years).'],
  ])('explains an invalid number (%j %s) beside it and does not search', async (value, unit, message) => {
    const { user } = await renderPage();
    await user.type(queryBox(), 'ESG');
    if (unit === 'weeks') await user.selectOptions(screen.getByRole('combobox', { name: 'Unit' }), 'Weeks');
    const amount = screen.getByRole('textbox', { name: `Number of ${unit}` });
    await user.clear(amount);
    if (value) await user.type(amount, value);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription(message);
    expect(searchButton()).toBeDisabled();
    await user.type(amount, '{Enter}');
    expect(sent).toEqual([]);
  });
});

describe('the results', () => {
  it('shows each card: title, site, date, Sample tag, the snippet with matches marked, Read More in a new tab', async () => {
    searchReply = () => ({
      body: page(
        [
          item(1),
          item(2, { publishedAt: null, sample: true, displayLink: 'kpmg.com', competitorKey: 'kpmg' }),
        ],
        { total: 1234 },
      ),
    });
    const { user } = await renderPage();
    await user.type(queryBox(), 'ESG{Enter}');
    const [first, second] = await within(
      await screen.findByRole('list', { name: 'Results for ESG' }),
    ).findAllByRole('article');
    expect(within(first!).getByRole('heading', { name: 'Raport 1' })).toBeVisible();
    expect(within(first!).getByText('deloitte.com')).toBeVisible();
    // The firm beside its domain, with its chart colour as a dot.
    expect(within(first!).getByText('Deloitte')).toBeVisible();
    expect(dotColour(first!)).toBe(seriesPalette[0]);
    expect(within(first!).getByText('Mar 2, 2026')).toBeVisible();
    expect(within(first!).queryByText('Sample')).toBeNull();
    const marks = first!.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['ESG']);
    expect(within(first!).getByText('ESG', { selector: 'mark' }).parentElement).toHaveTextContent(
      'Pierwszy raport ESG numer 1.',
    );
    const readMore = within(first!).getByRole('link', { name: 'Read More: Raport 1 (opens in a new tab)' });
    expect(readMore).toHaveAttribute('href', 'https://www.deloitte.com/pl/pl/raport-1.html');
    expect(readMore).toHaveAttribute('target', '_blank');
    expect(readMore).toHaveAttribute('rel', 'noopener noreferrer');

    expect(within(second!).getByText('Unknown date')).toBeVisible();
    expect(within(second!).getByText('Sample')).toBeVisible();
    expect(within(second!).getByText('kpmg.com')).toBeVisible();
    expect(within(second!).getByText('KPMG')).toBeVisible();

    expect(screen.getByText('1,234 results (0.04 seconds)')).toBeVisible();
  });

  it('shows an HTML-looking title and snippet as the text they are', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    searchReply = () => ({
      body: page([
        item(1, {
          title: `Tytuł ${hostile}`,
          snippet: `Tekst ${hostile}`,
          snippetParts: [
            { text: 'Tekst ', match: false },
            { text: hostile, match: true },
            { text: ' <script>window.__gemXss=1</script>', match: false },
          ],
          link: 'javascript:alert(1)',
        }),
      ]),
    });
    const { user, container } = await renderPage();
    await user.type(queryBox(), 'ESG{Enter}');
    expect(await screen.findByRole('heading', { name: `Tytuł ${hostile}` })).toBeVisible();
    expect(screen.getByText(hostile, { selector: 'mark' })).toBeVisible();
    expect(container.querySelector('main img, main script')).toBeNull();
    // A link that is not a web address is not offered.
    expect(screen.queryByRole('link', { name: /^Read More/ })).toBeNull();
  });

  it('says "1 result" for one', async () => {
    const { user } = await renderPage();
    await user.type(queryBox(), 'ESG{Enter}');
    expect(await screen.findByText('1 result (0.04 seconds)')).toBeVisible();
  });

  it('says "About" only for a hosted search service, which counts what it has shown so far', async () => {
    competitorsReply = () => ({ body: competitors({ provider: 'brave', sample: false }) });
    searchReply = () => ({ body: page([item(1), item(2)], { total: 2 }) });
    const { user } = await renderPage();
    await user.type(queryBox(), 'ESG{Enter}');
    expect(await screen.findByText('About 2 results (0.04 seconds)')).toBeVisible();
  });

  it('appends the next page with Load More Results, which is gone at the end', async () => {
    searchReply = ({ start }) => ({
      body: page(
        Array.from({ length: start === 21 ? 3 : 10 }, (_, i) => item(start + i)),
        { start, total: 23 },
      ),
    });
    const { user } = await renderPage();
    await user.type(queryBox(), 'ESG{Enter}');
    await screen.findByText('Raport 10');
    // How far through the results the list is, beside the button.
    expect(screen.getByText('10 of 23 shown')).toBeVisible();
    expect(screen.getByText('10 of 23 shown').parentElement).toContainElement(
      screen.getByRole('button', { name: 'Load More Results' }),
    );
    await user.click(screen.getByRole('button', { name: 'Load More Results' }));
    await screen.findByText('Raport 20');
    expect(titles()).toHaveLength(20);
    expect(screen.getByText('20 of 23 shown')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Load More Results' }));
    await screen.findByText('Raport 23');
    expect(titles()).toEqual(Array.from({ length: 23 }, (_, i) => `Raport ${i + 1}`));
    expect(screen.queryByRole('button', { name: 'Load More Results' })).toBeNull();
    expect(screen.getByText('23 results shown: that is all of them.')).toBeVisible();
    expect(screen.queryByText(/ of 23 shown$/)).toBeNull();
    expect(sent.map((body) => (body as { start: number }).start)).toEqual([1, 11, 21]);
  });

  it('clears the old results when a new search starts, and Back returns to the search before', async () => {
    const held = gate();
    searchReply = ({ query, start }) =>
      query === 'AI'
        ? { body: page([item(1, { title: 'AI w bankach' })]), until: held.until }
        : { body: page([item(start)], { start }) };
    const { user, router } = await renderPage();
    await user.type(queryBox(), 'ESG{Enter}');
    await screen.findByText('Raport 1');
    await user.clear(queryBox());
    await user.type(queryBox(), 'AI{Enter}');
    expect(await screen.findByText('Searching…')).toBeVisible();
    expect(screen.queryByText('Raport 1')).toBeNull();
    held.open();
    expect(await screen.findByText('AI w bankach')).toBeVisible();
    expect(queryBox()).toHaveValue('AI');

    await router.navigate(-1);
    expect(await screen.findByText('Raport 1')).toBeVisible();
    expect(queryBox()).toHaveValue('ESG');
    expect(screen.queryByText('AI w bankach')).toBeNull();
  });

  it('runs the search in the address on opening, with its filters in the form', async () => {
    await renderPage(`${path}?q=ESG&site=kpmg.com%2Fpl%2Fpl%2F&window=w12`);
    await screen.findByText('Raport 1');
    expect(sent).toEqual([
      { query: 'ESG', num: 10, start: 1, dateRestrict: 'w12', sort: 'date', siteSearch: 'kpmg.com/pl/pl/' },
    ]);
    expect(queryBox()).toHaveValue('ESG');
    expect(screen.getByRole('textbox', { name: 'Number of weeks' })).toHaveValue('12');
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Competitor' })).toHaveDisplayValue('KPMG'),
    );
  });

  it('charts the pages per competitor and week, with the numbers in a table for screen readers', async () => {
    const monday = mondayWeeksAgo(1);
    const earlier = mondayWeeksAgo(3);
    searchReply = () => ({
      body: page([item(1)], {
        weeklyCounts: [
          { weekStart: monday, competitorKey: 'deloitte', count: 3 },
          { weekStart: monday, competitorKey: 'pwc', count: 1 },
          { weekStart: earlier, competitorKey: 'kpmg', count: 2 },
        ],
      }),
    });
    const { user } = await renderPage();
    await user.type(queryBox(), 'ESG{Enter}');
    const figure = await screen.findByRole('figure', { name: 'Matching pages per week, by competitor' });
    const table = within(figure).getByRole('table', { name: 'Matching pages per week, by competitor' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows[0]).toEqual(['Week', 'Deloitte', 'PwC', 'KPMG', 'Total']);
    // Every week of the 90 days, empty ones too.
    expect(rows.length - 1).toBeGreaterThanOrEqual(13);
    expect(rows.filter((r) => r.at(-1) !== '0' && r[0] !== 'Week')).toEqual([
      [`Week of ${dayLabel(earlier)}`, '0', '0', '2', '2'],
      [`Week of ${dayLabel(monday)}`, '3', '1', '0', '4'],
    ]);
    // The drawing itself is hidden from screen readers (the table says it all).
    expect(figure.querySelector('svg[aria-hidden="true"] rect')).not.toBeNull();
  });

  it('gives a competitor one colour in every search, in the chart and on its cards, whoever else is there', async () => {
    const monday = mondayWeeksAgo(1);
    searchReply = ({ query }) =>
      query === 'audyt'
        ? {
            body: page([item(1, { displayLink: 'kpmg.com', competitorKey: 'kpmg' })], {
              weeklyCounts: [{ weekStart: monday, competitorKey: 'kpmg', count: 2 }],
            }),
          }
        : {
            body: page([item(1), item(2, { displayLink: 'kpmg.com', competitorKey: 'kpmg' })], {
              weeklyCounts: [
                { weekStart: monday, competitorKey: 'kpmg', count: 1 },
                { weekStart: monday, competitorKey: 'deloitte', count: 3 },
              ],
            }),
          };
    const { user } = await renderPage();
    await user.type(queryBox(), 'audyt{Enter}');
    await screen.findByRole('figure', { name: 'Matching pages per week, by competitor' });
    const kpmg = legendColour('KPMG');
    expect(dotColour(within(results()).getByRole('article'))).toBe(kpmg);

    await user.clear(queryBox());
    await user.type(queryBox(), 'raport{Enter}');
    await screen.findByText('Raport 2');
    expect(legendColour('KPMG')).toBe(kpmg);
    expect(legendColour('Deloitte')).not.toBe(kpmg);
    const [deloitteCard, kpmgCard] = within(results()).getAllByRole('article');
    expect(dotColour(kpmgCard!)).toBe(kpmg);
    expect(dotColour(deloitteCard!)).toBe(legendColour('Deloitte'));
    // GEM's own firm alone wears the brand colour.
    expect([kpmg, legendColour('Deloitte')]).not.toContain(brandColour);
  });

  it('charts every match on request when the count stopped at its cap, and says when it could not', async () => {
    const counted: unknown[] = [];
    let countsStatus = 503;
    server.on('POST', competitorSearchPaths.weeklyCounts, (_req, raw, res) => {
      counted.push(JSON.parse(raw));
      if (countsStatus !== 200) {
        return json(res, countsStatus, {
          error: { code: 'service_unavailable', message: 'The index is busy.' },
        });
      }
      json(res, 200, {
        total: 1234,
        weeklyCounts: [{ weekStart: mondayWeeksAgo(1), competitorKey: 'deloitte', count: 1200 }],
      });
    });
    searchReply = () => ({ body: page([item(1)], { total: 1000, capped: true }) });
    const { user } = await renderPage();
    await user.type(queryBox(), 'rynek{Enter}');
    expect(await screen.findByText('1,000+ results (0.04 seconds)')).toBeInTheDocument();
    expect(
      screen.getByText(
        'More than 1,000 pages match: too many to chart with the results. Count them all to see who published them, week by week, or narrow the window or choose one competitor.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('figure')).toBeNull();
    // Nothing is counted before it is asked for.
    expect(counted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Chart every match' }));
    expect(await screen.findByText(/^The matches could not be counted: /)).toHaveTextContent(
      'The matches could not be counted: The index is busy.',
    );
    // Asked once more on a 503, as the search is.
    const asked = { query: 'rynek', siteSearch: null, dateRestrict: 'd90' };
    expect(counted).toEqual([asked, asked]);

    countsStatus = 200;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const figure = await screen.findByRole('figure', { name: 'Matching pages per week, by competitor' });
    expect(screen.getByText('1,234 pages match, all counted.')).toBeInTheDocument();
    const rows = within(figure)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows[0]).toEqual(['Week', 'Deloitte', 'Total']);
    expect(rows.filter((r) => r.at(-1) !== '0' && r[0] !== 'Week')).toEqual([
      [`Week of ${dayLabel(mondayWeeksAgo(1))}`, '1,200', '1,200'],
    ]);

    // Sorting the same search another way keeps the chart, without counting again.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'relevance');
    await user.click(searchButton());
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ sort: 'relevance' }));
    expect(await screen.findByText('1,234 pages match, all counted.')).toBeInTheDocument();
    expect(counted).toHaveLength(3);
  });
});

describe('the empty states', () => {
  it('explains the tool before the first search and searches an example when clicked', async () => {
    const { user, router } = await renderPage();
    expect(screen.getByRole('heading', { name: 'See what competitors publish on a topic' })).toBeVisible();
    await screen.findByText(/Polish sites of Deloitte, PwC, KPMG/);
    const examples = screen.getAllByRole('button', {
      name: /^(ESG reporting|sztuczna inteligencja|cyberbezpieczeństwo)$/,
    });
    expect(examples).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'sztuczna inteligencja' }));
    await screen.findByText('Raport 1');
    expect(queryBox()).toHaveValue('sztuczna inteligencja');
    expect(router.state.location.search).toBe('?q=sztuczna+inteligencja&window=d90');
  });

  it('offers a wider window, other words and all competitors when nothing matches', async () => {
    searchReply = (request) =>
      request.dateRestrict === 'd365' && request.siteSearch === null
        ? { body: page([item(1)]) }
        : { body: page([]) };
    const { user } = await renderPage(`${path}?q=ESG&site=kpmg.com%2Fpl%2Fpl%2F&window=d30`);
    expect(await screen.findByRole('heading', { name: 'No pages match “ESG”' })).toBeVisible();
    await screen.findByText(/on KPMG's site in the last 30 days/);

    await user.click(screen.getByRole('button', { name: 'Try other words' }));
    expect(queryBox()).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Search the last 12 months' }));
    await screen.findByText(/on KPMG's site in the last 365 days/);
    expect(sent.at(-1)).toMatchObject({ dateRestrict: 'd365', siteSearch: 'kpmg.com/pl/pl/' });
    expect(screen.queryByRole('button', { name: 'Search the last 12 months' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Search all competitors' }));
    await screen.findByText('Raport 1');
    expect(sent.at(-1)).toMatchObject({ dateRestrict: 'd365', siteSearch: null });
  });

  it('says when the index is still empty, and when it was last crawled', async () => {
    competitorsReply = () => ({ body: competitors({ crawling: true }, { pages: 0 }) });
    searchReply = () => ({ body: page([]) });
    const { user } = await renderPage();
    expect(await screen.findByRole('heading', { name: 'The index is still empty' })).toBeVisible();
    expect(screen.getByText(/The last crawl finished/)).toHaveTextContent(
      /The last crawl finished Mar 2, 2026 \d\d:\d\d and found no pages\. The next crawl adds their pages/,
    );
    await user.type(queryBox(), 'ESG{Enter}');
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(await screen.findByRole('heading', { name: 'The index is still empty' })).toBeVisible();
  });

  it('says crawling is off when the index is empty and never crawled', async () => {
    competitorsReply = () => ({ body: competitors({ crawling: false }, { pages: 0, lastCrawledAt: null }) });
    await renderPage();
    expect(await screen.findByRole('heading', { name: 'The index is still empty' })).toBeVisible();
    expect(screen.getByText(/Crawling is off/)).toHaveTextContent(
      'Crawling is off: to search the competitors’ pages, ask your GEM administrator to turn it on.',
    );
    expect(screen.getByRole('status')).not.toHaveTextContent(/GEM_/);
  });

  it('says what failed and searches again on Try again', async () => {
    let failing = true;
    searchReply = () =>
      failing
        ? {
            status: 503,
            body: {
              error: {
                code: 'service_unavailable',
                message: 'The search service is unavailable.',
                requestId: 'req-7',
              },
            },
          }
        : { body: page([item(1)]) };
    const { user } = await renderPage();
    await user.type(queryBox(), 'ESG{Enter}');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'The search did not work' })).toBeVisible();
    expect(within(alert).getByText('The search service is unavailable.')).toBeVisible();
    expect(within(alert).getByText('req-7')).toBeVisible();
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Raport 1')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the index freshness', () => {
  it('shows pages and the last crawl in one line, and per competitor on request', async () => {
    const { user } = await renderPage();
    const line = await screen.findByText(/^Index: 240 pages from 3 competitors/);
    expect(line.closest('summary')).toHaveTextContent(/last crawled Mar 2, 2026 \d\d:\d\d/);
    await user.click(line);
    const table = screen.getByRole('table', { name: 'Pages in the index per competitor' });
    expect(within(table).getByRole('rowheader', { name: /KPMG/ })).toBeVisible();
    expect(within(within(table).getAllByRole('row')[3]!).getByText(/Mar 1, 2026/)).toBeVisible();
  });

  it('says when the index is the sample corpus, and which sites could not be read', async () => {
    competitorsReply = () => ({
      body: {
        ...competitors({ sample: true, crawling: false }),
        competitors: competitors().competitors.map((c) =>
          c.key === 'kpmg' ? { ...c, lastError: 'The site answered 503.' } : c,
        ),
      },
    });
    await renderPage();
    expect(await screen.findByText(/^Sample corpus: 240 pages/)).toBeVisible();
    expect(screen.getByRole('note')).toHaveTextContent(
      'Sample corpus. These pages are fictional, bundled with GEM to show how the search works: not what the competitors really published. To search their real pages, ask your GEM administrator to turn on crawling of the competitors’ sites.',
    );
    // The setting's name is the administrator's business (README), not the marketer's.
    expect(screen.getByRole('note')).not.toHaveTextContent(/GEM_/);
    expect(screen.getByText('1 site could not be read last time')).toBeVisible();
    expect(screen.getByText('The site answered 503.')).toBeInTheDocument();
  });
});

/** The colour of a competitor's swatch in the chart's legend. */
function legendColour(name: string): string | null {
  const figure = screen.getByRole('figure', { name: 'Matching pages per week, by competitor' });
  const entry = [...figure.querySelectorAll('li')].find((li) => li.textContent === name);
  return entry?.querySelector('rect')?.getAttribute('fill') ?? null;
}

/** The colour of the dot beside the firm's name on a result card. */
function dotColour(card: HTMLElement): string | null {
  return card.querySelector('svg circle')?.getAttribute('fill') ?? null;
}

/** The Monday `weeks` weeks before this week's, as YYYY-MM-DD (local calendar, as the chart counts). */
function mondayWeeksAgo(weeks: number): string {
  const today = new Date();
  const day = new Date(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7) - 7 * weeks);
  return day.toISOString().slice(0, 10);
}

function dayLabel(isoDay: string): string {
  const [y, m, d] = isoDay.split('-').map(Number);
  return new Date(y!, m! - 1, d!).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}

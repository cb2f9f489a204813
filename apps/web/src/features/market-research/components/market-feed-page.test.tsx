import type { FeedItem, MarketFeedResponse } from '@gem/contracts/market-research';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

const item = (n: number, extra: Partial<FeedItem> = {}): FeedItem => ({
  id: String(n),
  title: `Story ${n}`,
  url: `https://www.news.example/story-${n}`,
  image: `https://cdn.news.example/${n}.jpg`,
  date_published: `2026-03-${String(10 - (n % 9)).padStart(2, '0')}T12:00:00Z`,
  content_text: `Excerpt ${n}.`,
  authors: [{ name: `Author ${n}` }, { name: 'Second author' }],
  ...extra,
});

function page(
  marketId: string,
  items: FeedItem[],
  overrides: Partial<Omit<MarketFeedResponse, 'feed'>> & { feed?: Partial<MarketFeedResponse['feed']> } = {},
): MarketFeedResponse {
  return {
    market: { slug: marketId, name: marketId, subMarket: null, children: [] },
    items,
    nextCursor: null,
    ...overrides,
    feed: {
      configured: true,
      sample: false,
      lastRefreshedAt: '2026-03-02T08:15:00Z',
      failingSince: null,
      ...overrides.feed,
    },
  };
}

type Reply = { status?: number; body: unknown };
let replies: (url: URL) => Reply;

const server = serveApi();

beforeEach(() => {
  server.on('GET', '/api/markets/*', (req, _body, res) => {
    const { status = 200, body } = replies(new URL(req.url ?? '/', server.origin()));
    json(res, status, body);
  });
});

const requested = () => server.state.requests.map((request) => request.url);

describe('a market area page', () => {
  it('shows the area panel: name, the client list, Creator and Return', async () => {
    replies = () => ({ body: page('priority-clients', [item(1)]) });
    renderRoute('/market-research/priority-clients');
    const panel = await screen.findByRole('complementary');
    expect(within(panel).getByRole('heading', { level: 1, name: 'Priority clients' })).toBeVisible();
    const clients = within(panel).getByRole('navigation', {
      name: 'Looking for in-depth info on a specific client?',
    });
    const links = within(clients).getAllByRole('link');
    expect(links).toHaveLength(13);
    expect(within(clients).getByRole('link', { name: 'Żabka' })).toHaveAttribute(
      'href',
      '/market-research/priority-clients/zabka',
    );
    expect(within(panel).getByRole('link', { name: 'Creator' })).toHaveAttribute('href', '/tools');
    expect(within(panel).getByRole('link', { name: 'Return' })).toHaveAttribute('href', '/market-research');
    // Pages load on demand: the title is set once the page's effect has run.
    await waitFor(() => expect(document.title).toBe('Priority clients · GEM'));
  });

  it('shows no client list for an area without sub-areas', async () => {
    replies = () => ({ body: page('esg', [item(1)]) });
    renderRoute('/market-research/esg');
    await screen.findByText('Story 1');
    expect(screen.queryByText('Looking for in-depth info on a specific client?')).toBeNull();
  });

  it('renders each item: image or blank box, title, Mon DD or no date, host without www., excerpt', async () => {
    replies = () => ({
      body: page('technology', [
        item(1, { date_published: '2026-03-01T12:00:00Z' }),
        item(2, { image: null, date_published: null, url: 'https://news.example.org/b' }),
      ]),
    });
    renderRoute('/market-research/technology');
    const list = await screen.findByRole('list', { name: 'Technology news' });
    const [first, second] = within(list).getAllByRole('article');
    expect(within(first!).getByRole('heading', { name: /Story 1/ })).toBeVisible();
    expect(within(first!).getByText('Mar 01')).toBeVisible();
    expect(within(first!).getByText('news.example')).toBeVisible();
    expect(within(first!).getByText('Excerpt 1.')).toBeVisible();
    expect(first!.querySelector('img')).toHaveAttribute('src', 'https://cdn.news.example/1.jpg');
    expect(within(second!).getByText('no date')).toBeVisible();
    expect(within(second!).getByText('news.example.org')).toBeVisible();
    expect(within(second!).getByTestId('blank-image')).toBeInTheDocument();
    expect(second!.querySelector('img')).toBeNull();
    for (const link of within(list).getAllByRole('link')) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    expect(screen.getByText(/Last refreshed/)).toHaveTextContent(/Mar 2, 2026 \d\d:\d\d/);
  });

  it('names the first author as the source on the pwc area', async () => {
    replies = () => ({ body: page('pwc', [item(1)]) });
    renderRoute('/market-research/pwc');
    const article = await screen.findByRole('article');
    expect(within(article).getByText('Author 1')).toBeVisible();
    expect(within(article).queryByText('news.example')).toBeNull();
  });

  it('marks sample content as sample, and tells a marketer whom to ask for real news', async () => {
    replies = () => ({ body: page('esg', [item(1), item(2)], { feed: { sample: true } }) });
    renderRoute('/market-research/esg');
    expect(await screen.findByRole('note')).toHaveTextContent(
      'Sample content. These items are fictional, bundled with GEM to show how a feed looks: not real news. For real news here, ask your GEM administrator to set up this area’s feed.',
    );
    // The setting's name is the administrator's business (README), not the marketer's.
    expect(screen.getByRole('note')).not.toHaveTextContent(/GEM_/);
    expect(screen.getAllByText('Sample')).toHaveLength(2);
  });

  it("shows 'Url you provided is wrong' with a link to /login for an unknown market, without asking the API", async () => {
    replies = () => ({ body: {} });
    renderRoute('/market-research/not-a-market');
    expect(await screen.findByRole('heading', { name: 'Url you provided is wrong' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
    renderRoute('/market-research/technology/orlen');
    expect(await screen.findAllByRole('heading', { name: 'Url you provided is wrong' })).toHaveLength(2);
    expect(server.state.requests).toEqual([]);
  });

  it("shows 'Url you provided is wrong' when the load fails", async () => {
    replies = () => ({ status: 404, body: { error: { code: 'not_found', message: 'Market not found' } } });
    renderRoute('/market-research/priority-clients/orlen');
    expect(await screen.findByRole('heading', { name: 'Url you provided is wrong' })).toBeVisible();
  });

  it("says 'No feed configured' for an area without a feed", async () => {
    replies = () => ({
      body: page('leadership', [], { feed: { configured: false, lastRefreshedAt: null } }),
    });
    renderRoute('/market-research/leadership');
    expect(await screen.findByRole('heading', { name: 'No feed configured' })).toBeVisible();
    expect(screen.getByText(/^No news feed is set up/)).toHaveTextContent(
      'No news feed is set up for Leadership yet. To see its news here, ask your GEM administrator to add one.',
    );
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('shows the sub-area feed with its client marked in the list', async () => {
    replies = () => ({
      body: page('priority-clients', [item(1)], {
        market: {
          slug: 'priority-clients',
          name: 'Priority clients',
          subMarket: { slug: 'orlen', name: 'Orlen' },
          children: [],
        },
      }),
    });
    renderRoute('/market-research/priority-clients/orlen');
    expect(await screen.findByRole('heading', { level: 2, name: 'Orlen' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Orlen' })).toHaveAttribute('aria-current', 'page');
    expect(requested()[0]!.pathname).toBe('/api/markets/priority-clients/orlen');
    // Pages load on demand: the title is set once the page's effect has run.
    await waitFor(() => expect(document.title).toBe('Orlen · Priority clients · GEM'));
  });

  it('searches the area as the user types', async () => {
    replies = (url) =>
      url.searchParams.get('q') === 'banks'
        ? { body: page('technology', [item(9, { title: 'Banks go cloud' })]) }
        : { body: page('technology', [item(1), item(2)]) };
    const { user } = renderRoute('/market-research/technology');
    await screen.findByText('Story 1');
    await user.type(screen.getByRole('searchbox', { name: 'Search Technology news' }), 'banks');
    expect(await screen.findByText('Banks go cloud')).toBeVisible();
    expect(screen.queryByText('Story 1')).toBeNull();
    expect(requested().at(-1)!.searchParams.get('q')).toBe('banks');
  });

  it('says when nothing matches the search', async () => {
    replies = () => ({ body: page('technology', []) });
    renderRoute('/market-research/technology?q=quantum');
    expect(await screen.findByRole('heading', { name: 'No items match “quantum”' })).toBeVisible();
  });

  it('loads the next page when asked, keeping the items already shown', async () => {
    replies = (url) =>
      url.searchParams.get('cursor') === 'next'
        ? { body: page('technology', [item(3)]) }
        : { body: page('technology', [item(1), item(2)], { nextCursor: 'next' }) };
    const { user } = renderRoute('/market-research/technology');
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Story 3')).toBeVisible();
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(screen.getByText('You have reached the end of this feed.')).toBeVisible();
  });

  it('warns when the feed is failing and the items shown are the last ones read', async () => {
    replies = () => ({
      body: page('technology', [item(1)], { feed: { failingSince: '2026-03-02T06:00:00Z' } }),
    });
    renderRoute('/market-research/technology');
    expect(await screen.findByText(/could not be refreshed since/)).toBeVisible();
    expect(screen.getByText('Story 1')).toBeVisible();
  });
});

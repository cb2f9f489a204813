import { campaignSourcesPath, sourceAsBaseContent } from '@gem/contracts/campaign-sources';
import {
  competitorSearchPaths,
  type CompetitorSearchItem,
  type CompetitorSearchResponse,
} from '@gem/contracts/competitor-search';
import type { FeedItem, MarketFeedResponse } from '@gem/contracts/market-research';
import { render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { Toasts } from '@/app/toasts';
import { campaign, COLLEAGUE, fakeCampaignsApi } from '@/features/campaigns/testing/fake-campaigns-api';
import { fakeSourcesApi } from '@/features/campaigns/sources/testing/fake-sources-api';
import { json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

// 'Use in…' on Market Research items and competitor search results (issue 29): a writing tool
// opened with the item as its base content, or the item added to a campaign's sources, against
// the local API server speaking the campaigns' and the sources' contracts.

const NEWS: FeedItem = {
  id: 'item-42',
  title: 'Rynek ESG rośnie o 20%',
  url: 'https://www.news.example/esg-rosnie',
  image: null,
  date_published: '2026-03-09T12:00:00Z',
  content_text: 'Raport pokazuje, że firmy w Polsce coraz częściej raportują ESG.',
  authors: [],
};

const RESULT: CompetitorSearchItem = {
  title: 'Deloitte: raport o cyberbezpieczeństwie',
  displayLink: 'deloitte.com',
  snippet: 'Cyberbezpieczeństwo w sektorze finansowym 2026.',
  link: 'https://www.deloitte.com/pl/pl/cyber-2026.html',
  snippetParts: [],
  publishedAt: '2026-03-02T12:00:00Z',
  competitorKey: 'deloitte',
  sample: false,
};

const SPRING = campaign({ id: 'c0000000-0000-4000-8000-000000000011', name: 'Spring Webinar' });
const AUTUMN = campaign({
  id: 'c0000000-0000-4000-8000-000000000012',
  name: 'Autumn ESG Report',
  role: 'editor',
  owner: COLLEAGUE,
});
const READ_ONLY = campaign({
  id: 'c0000000-0000-4000-8000-000000000013',
  name: 'Team Newsletter',
  role: 'reader',
  owner: COLLEAGUE,
  sharing: 'team',
});

const server = serveApi();
const campaigns = fakeCampaignsApi(server);
const sources = fakeSourcesApi(server, campaigns, {
  items: { [NEWS.id]: { title: NEWS.title, url: NEWS.url, contentText: NEWS.content_text } },
  competitorSites: ['https://www.deloitte.com/'],
});

function feedPage(items: FeedItem[]): MarketFeedResponse {
  return {
    market: { slug: 'esg', name: 'ESG', subMarket: null, children: [] },
    items,
    nextCursor: null,
    feed: { configured: true, sample: false, lastRefreshedAt: '2026-03-10T08:15:00Z', failingSince: null },
  };
}

function searchPage(items: CompetitorSearchItem[]): CompetitorSearchResponse {
  return {
    items,
    searchInformation: {
      formattedTotalResults: String(items.length),
      formattedSearchTime: '0.04',
      totalResults: items.length,
    },
    queries: {},
  };
}

let results: CompetitorSearchItem[];

beforeEach(() => {
  results = [RESULT];
  campaigns.state.campaigns = [SPRING, AUTUMN, READ_ONLY];
  server.on('GET', '/api/markets/*', (_req, _raw, res) => json(res, 200, feedPage([NEWS])));
  server.on('GET', competitorSearchPaths.competitors, (_req, _raw, res) =>
    json(res, 200, { competitors: [], provider: 'index', sample: false, crawling: true }),
  );
  server.on('POST', competitorSearchPaths.search, (_req, _raw, res) => json(res, 200, searchPage(results)));
});

/** The app at `path`, with the toast container the app's provider mounts. */
function renderWithToasts(path: string) {
  const view = renderRoute(path);
  render(<Toasts />);
  return view;
}

async function openFeed() {
  const view = renderWithToasts('/market-research/esg');
  const card = (await screen.findByRole('heading', { level: 3, name: /Rynek ESG rośnie/ })).closest(
    'article',
  )!;
  const button = within(card).getByRole('button', { name: `Use in…: ${NEWS.title}` });
  return { ...view, card, button };
}

async function openSearch() {
  const view = renderWithToasts('/tools/competitor-search?q=cyber&window=d90');
  const card = (await screen.findByRole('heading', { level: 3, name: RESULT.title })).closest('article')!;
  const button = within(card).getByRole('button', { name: `Use in…: ${RESULT.title}` });
  return { ...view, card, button };
}

const menuItems = () => within(screen.getByRole('menu')).getAllByRole('menuitem');

describe("'Use in…' opens a writing tool with the item as its base content", () => {
  it('lists the four writing tools and Add to campaign…, and says whether it is open', async () => {
    const { user, button } = await openFeed();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu', { name: `Use in…: ${NEWS.title}` });
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(menuItems().map((item) => item.textContent)).toEqual([
      'Article',
      'Social media post',
      'Paid ads',
      'Teaser',
      'Add to campaign…',
    ]);
    await user.click(button);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens the article with the news item (title, link, summary) in its field, to edit; the task stays empty', async () => {
    const { user, button, router } = await openFeed();
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Article' }));
    await screen.findByRole('heading', { level: 1, name: 'Article' });
    const content = screen.getByLabelText('Paste the base content');
    expect(content).toHaveValue(`${NEWS.title}\n${NEWS.url}\n\n${NEWS.content_text}`);
    expect(content).toHaveValue(
      sourceAsBaseContent({ title: NEWS.title, url: NEWS.url, summary: NEWS.content_text }),
    );
    expect(screen.getByLabelText('Describe the task for GEM')).toHaveValue('');
    // In the navigation's state, not the address.
    expect(router.state.location.pathname).toBe('/tools/article');
    expect(router.state.location.search).toBe('');
    await user.type(content, ' Dopisek.');
    expect(content).toHaveValue(`${NEWS.title}\n${NEWS.url}\n\n${NEWS.content_text} Dopisek.`);
  });

  it.each([
    ['Social media post', 'Social media post'],
    ['Paid ads', 'Paid ads'],
    ['Teaser', 'Teaser generator'],
  ])(
    'opens %s with the competitor result (title, link, snippet) as its base content',
    async (entry, page) => {
      const { user, button } = await openSearch();
      await user.click(button);
      await user.click(screen.getByRole('menuitem', { name: entry }));
      await screen.findByRole('heading', { level: 1, name: page });
      expect(screen.getByLabelText('Paste the base content')).toHaveValue(
        `${RESULT.title}\n${RESULT.link}\n\n${RESULT.snippet}`,
      );
      expect(
        screen.getByRole('button', { name: entry === 'Social media post' ? 'Summarize' : 'Generate' }),
      ).toBeEnabled();
    },
  );

  it('leaves a tool opened from the menu or the address empty as before', async () => {
    const { user } = renderRoute('/tools/paid-ads');
    await screen.findByRole('heading', { level: 1, name: 'Paid ads' });
    const content = screen.getByLabelText('Paste the base content');
    expect(content).toHaveValue('');
    await user.type(content, 'Treść');
    expect(content).toHaveValue('Treść');
  });
});

describe("the 'Use in…' menu from the keyboard", () => {
  it('opens on the first entry, moves with the arrows, Home, End and a letter, and Escape gives the focus back', async () => {
    const { user, button } = await openFeed();
    button.focus();
    await user.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(menuItems()[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Social media post' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Add to campaign…' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Article' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Add to campaign…' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('menuitem', { name: 'Article' })).toHaveFocus();
    await user.keyboard('p');
    expect(screen.getByRole('menuitem', { name: 'Paid ads' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();

    // Up opens it on the last entry; Space works as Enter does.
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Add to campaign…' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Article' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await user.keyboard(' ');
    expect(screen.getByRole('menuitem', { name: 'Article' })).toHaveFocus();

    // Tab closes it and goes on from the button.
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).not.toHaveFocus();
  });

  it('closes on a press elsewhere', async () => {
    const { user, button } = await openFeed();
    await user.click(button);
    expect(screen.getByRole('menu')).toBeVisible();
    await user.click(screen.getByRole('heading', { level: 2, name: 'Latest news' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('chooses an entry with Enter: the teaser opens with the item in its field', async () => {
    const { user, button } = await openFeed();
    button.focus();
    await user.keyboard('{ArrowUp}{ArrowUp}{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Teaser generator' });
    expect(screen.getByLabelText('Paste the base content')).toHaveValue(
      `${NEWS.title}\n${NEWS.url}\n\n${NEWS.content_text}`,
    );
  });
});

describe("'Add to campaign…'", () => {
  beforeEach(() => sources.serve());

  async function openDialog(view: { user: ReturnType<typeof renderRoute>['user']; button: HTMLElement }) {
    await view.user.click(view.button);
    await view.user.click(screen.getByRole('menuitem', { name: 'Add to campaign…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to a campaign' });
    return dialog;
  }

  it('lists the campaigns the user owns or edits, found by name; Add posts the news item by its id and a toast leads to the campaign', async () => {
    const view = await openFeed();
    const dialog = await openDialog(view);
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription(new RegExp(NEWS.title));
    const search = within(dialog).getByRole('searchbox', { name: 'Search your campaigns' });
    expect(search).toHaveFocus();
    const list = await within(dialog).findByRole('list', { name: 'Campaigns you can add to' });
    // A campaign shared for reading only is not one to add to.
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.firstElementChild?.firstElementChild?.textContent),
    ).toEqual(['Spring Webinar', 'Autumn ESG Report']);
    expect(within(list).getByText('Planning · Ola Nowak’s, you edit it')).toBeVisible();

    await view.user.type(search, 'autumn');
    await waitFor(() => expect(within(dialog).queryByText('Spring Webinar')).toBeNull());
    expect(campaigns.state.listQueries.at(-1)?.get('q')).toBe('autumn');
    await view.user.click(within(dialog).getByRole('button', { name: 'Add to Autumn ESG Report' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sources.state.posted).toEqual([
      { campaignId: AUTUMN.id, body: { kind: 'market-research', itemId: NEWS.id } },
    ]);
    const toast = await screen.findByText(/Added to “Autumn ESG Report”\./);
    const link = within(toast).getByRole('link', { name: 'Open the campaign' });
    expect(link).toHaveAttribute('href', `/campaigns/${AUTUMN.id}`);
    expect(view.button).toHaveFocus();
    await view.user.click(link);
    await waitFor(() => expect(view.router.state.location.pathname).toBe(`/campaigns/${AUTUMN.id}`));
  });

  it('posts a competitor result by its link, title and snippet', async () => {
    const view = await openSearch();
    const dialog = await openDialog(view);
    await view.user.click(await within(dialog).findByRole('button', { name: 'Add to Spring Webinar' }));
    await screen.findByText(/Added to “Spring Webinar”\./);
    expect(sources.state.posted).toEqual([
      {
        campaignId: SPRING.id,
        body: { kind: 'competitor', link: RESULT.link, title: RESULT.title, snippet: RESULT.snippet },
      },
    ]);
  });

  it("shows the server's 400 in the dialog and keeps it open: a result that is not a competitor's page", async () => {
    results = [{ ...RESULT, link: 'https://blog.example.com/cyber', displayLink: 'blog.example.com' }];
    const view = await openSearch();
    const dialog = await openDialog(view);
    await view.user.click(await within(dialog).findByRole('button', { name: 'Add to Spring Webinar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'It could not be added to “Spring Webinar”: This link is not a page of a competitor GEM follows: add results of the competitor search.',
    );
    expect(sources.state.posted).toHaveLength(1);
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it.each([
    [403, 'forbidden', 'Only its owner or editors may change this campaign.'],
    [404, 'not_found', 'Campaign not found.'],
    [409, 'conflict', 'Someone changed this campaign’s sources meanwhile. Try again.'],
  ])('shows a %i in the server’s words', async (status, code, message) => {
    server.on('POST', campaignSourcesPath(SPRING.id), (_req, _raw, res) =>
      json(res, status, { error: { code, message, requestId: 'req-test' } }),
    );
    const view = await openFeed();
    const dialog = await openDialog(view);
    await view.user.click(await within(dialog).findByRole('button', { name: 'Add to Spring Webinar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `It could not be added to “Spring Webinar”: ${message}`,
    );
    // Another campaign can still be chosen.
    expect(within(dialog).getByRole('button', { name: 'Add to Autumn ESG Report' })).toBeEnabled();
  });

  it('says how a campaign is made when the user has none, with the way to the campaigns', async () => {
    campaigns.state.campaigns = [];
    const view = await openFeed();
    const dialog = await openDialog(view);
    // The dialog says 'Loading your campaigns…' in a status first.
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent('You have no campaign yet'),
    );
    const none = within(dialog).getByRole('status');
    expect(none).toHaveTextContent('A campaign is made from a finished brief');
    expect(within(dialog).queryByRole('searchbox')).toBeNull();
    const link = within(none).getByRole('link', { name: 'Go to your campaigns' });
    expect(link).toHaveAttribute('href', '/campaigns');
    expect(link).toHaveFocus();
  });

  it('says so when the only campaigns are shared for reading', async () => {
    campaigns.state.campaigns = [READ_ONLY];
    const view = await openFeed();
    const dialog = await openDialog(view);
    // The dialog says 'Loading your campaigns…' in a status first.
    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent(
        'You can only read the campaigns shared with you',
      ),
    );
  });

  it('closes with Escape or its close button, giving the focus back to the menu button', async () => {
    const view = await openFeed();
    await openDialog(view);
    await view.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(view.button).toHaveFocus();

    const dialog = await openDialog(view);
    await view.user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(view.button).toHaveFocus();
    expect(sources.state.posted).toEqual([]);
  });

  it('keeps Tab inside the dialog', async () => {
    const view = await openFeed();
    const dialog = await openDialog(view);
    await within(dialog).findByRole('list', { name: 'Campaigns you can add to' });
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const last = within(dialog).getByRole('button', { name: 'Add to Autumn ESG Report' });
    last.focus();
    await view.user.tab();
    expect(close).toHaveFocus();
    await view.user.tab({ shift: true });
    expect(last).toHaveFocus();
  });
});

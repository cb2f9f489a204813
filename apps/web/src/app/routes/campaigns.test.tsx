import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import {
  brief,
  fakeBriefApi,
  FINISHED_ID,
  finishedBrief,
} from '@/features/brief-creator/testing/fake-brief-api';
import {
  campaign,
  campaignBrief,
  COLLEAGUE,
  fakeCampaignsApi,
} from '@/features/campaigns/testing/fake-campaigns-api';
import { serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

const server = serveApi();
const api = fakeCampaignsApi(server);
const briefs = fakeBriefApi(server);

const id = (n: number) => `c0000000-0000-4000-8000-00000000000${n}`;

function threeCampaigns() {
  api.state.campaigns = [
    campaign({ id: id(1), name: 'Spring Webinar', status: 'active', updatedAt: '2026-03-14T10:30:00.000Z' }),
    campaign({
      id: id(2),
      name: 'Łódź Report',
      brief: campaignBrief({ campaignName: 'Łódź Report', campaignType: ['Report'], channels: ['Email'] }),
      owner: COLLEAGUE,
      role: 'reader',
      sharing: 'team',
    }),
    campaign({
      id: id(3),
      name: 'Autumn Event',
      brief: campaignBrief({ campaignName: 'Autumn Event', campaignType: ['Event'], channels: [] }),
      owner: COLLEAGUE,
      role: 'editor',
      status: 'completed',
    }),
  ];
}

const lastQuery = () => Object.fromEntries(api.state.listQueries.at(-1)!);

describe('Campaigns list', () => {
  it('shows each campaign as a card: name, status, owner, role, types, channels and date', async () => {
    threeCampaigns();
    renderRoute('/campaigns');
    expect(await screen.findByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Campaigns · GEM'));
    const list = await screen.findByRole('list', { name: 'Campaigns' });
    expect(
      within(list)
        .getAllByRole('article')
        .map((card) => card.getAttribute('aria-label')),
    ).toEqual(['Spring Webinar', 'Łódź Report', 'Autumn Event']);
    const spring = within(list).getByRole('article', { name: 'Spring Webinar' });
    expect(spring).toHaveTextContent('Active');
    expect(spring).toHaveTextContent('Owner');
    expect(spring).toHaveTextContent('Marketer');
    expect(spring).toHaveTextContent('Webinar');
    expect(spring).toHaveTextContent('LinkedIn, Newsletter');
    expect(spring).toHaveTextContent('Updated Mar 14, 2026');
    expect(within(spring).getByRole('link', { name: 'Spring Webinar' })).toHaveAttribute(
      'href',
      `/campaigns/${id(1)}`,
    );
    const report = within(list).getByRole('article', { name: 'Łódź Report' });
    expect(report).toHaveTextContent('Reader · read only');
    expect(report).toHaveTextContent('Ola Nowak · Shared with the team');
    expect(within(list).getByRole('article', { name: 'Autumn Event' })).toHaveTextContent(
      'ChannelsNot specified',
    );
  });

  it('filters by status, owner and campaign type, and searches by name, all in the URL', async () => {
    threeCampaigns();
    const { user, router } = renderRoute('/campaigns');
    const list = await screen.findByRole('list', { name: 'Campaigns' });
    const search = screen.getByRole('search', { name: 'Search campaigns' });

    await user.selectOptions(within(search).getByLabelText('Status'), 'Completed');
    await waitFor(() => expect(within(list).getAllByRole('article')).toHaveLength(1));
    expect(router.state.location.search).toBe('?status=completed');
    expect(lastQuery()).toEqual({ status: 'completed' });

    await user.selectOptions(within(search).getByLabelText('Status'), 'All statuses');
    await user.selectOptions(within(search).getByLabelText('Owner'), 'Others');
    await user.selectOptions(within(search).getByLabelText('Campaign type'), 'Report');
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('article')
          .map((c) => c.getAttribute('aria-label')),
      ).toEqual(['Łódź Report']),
    );
    expect(lastQuery()).toEqual({ owner: 'others', campaignType: 'Report' });
    expect(new URLSearchParams(router.state.location.search).get('type')).toBe('Report');

    // The search waits for the typing to stop, then asks once, accents aside.
    await user.type(within(search).getByLabelText('Search by name'), 'lodz');
    await waitFor(() => expect(lastQuery()).toEqual({ q: 'lodz', owner: 'others', campaignType: 'Report' }));
    expect(api.state.listQueries.filter((q) => q.has('q'))).toHaveLength(1);

    await user.type(within(search).getByLabelText('Search by name'), ' x');
    expect(await screen.findByText('No campaigns match these filters.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Clear the filters' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(router.state.location.search).toBe('');
    expect(within(search).getByLabelText('Search by name')).toHaveValue('');
  });

  it('keeps every filter chosen while the search waits for the typing to stop', async () => {
    threeCampaigns();
    const { user, router } = renderRoute('/campaigns');
    await screen.findByRole('list', { name: 'Campaigns' });
    const search = screen.getByRole('search', { name: 'Search campaigns' });
    // As a quick hand (or a browser test) does it: the filters inside the search's pause.
    await user.type(within(search).getByLabelText('Search by name'), 'report');
    await user.selectOptions(within(search).getByLabelText('Status'), 'Planning');
    await user.selectOptions(within(search).getByLabelText('Owner'), 'Others');
    await user.selectOptions(within(search).getByLabelText('Campaign type'), 'Report');
    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        q: 'report',
        status: 'planning',
        owner: 'others',
        type: 'Report',
      }),
    );
    // And still so once the search has been written.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      q: 'report',
      status: 'planning',
      owner: 'others',
      type: 'Report',
    });
  });

  it('opens with the filters the URL names', async () => {
    threeCampaigns();
    renderRoute('/campaigns?owner=me&status=active&type=nonsense');
    const card = await screen.findByRole('article', { name: 'Spring Webinar' });
    expect(card).toBeVisible();
    // A value the list does not know is left out of the request.
    expect(lastQuery()).toEqual({ status: 'active', owner: 'me' });
    expect(screen.getByLabelText('Owner')).toHaveValue('me');
    expect(screen.getByLabelText('Campaign type')).toHaveValue('');
  });

  it('says how to make a campaign when there is none yet', async () => {
    renderRoute('/campaigns');
    expect(await screen.findByRole('heading', { name: 'No campaigns yet' })).toBeVisible();
    expect(
      screen.getByText(/Accept a brief in the brief creator, then choose Create campaign/),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to finished briefs' })).toHaveAttribute(
      'href',
      '/tools/brief-creator?tab=finished',
    );
  });

  it('says the list could not be loaded, and tries again', async () => {
    // A refusal (a server error is retried first, seconds apart).
    api.state.listFails = 403;
    const { user } = renderRoute('/campaigns');
    expect(await screen.findByText(/The campaigns could not be loaded/)).toBeVisible();
    api.state.listFails = null;
    threeCampaigns();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Spring Webinar' })).toBeVisible();
  });
});

describe('Create campaign from a finished brief', () => {
  const made = () =>
    campaign({ id: id(7), name: 'Spring Webinar', finishedBriefId: FINISHED_ID, brief: campaignBrief() });

  it('on its card: opens the new campaign', async () => {
    briefs.state.finished = [finishedBrief({ data: brief({ campaignName: 'Spring Webinar' }) })];
    api.state.fromBrief[FINISHED_ID] = made();
    const { user, router } = renderRoute('/tools/brief-creator?tab=finished');
    const card = await screen.findByRole('article', { name: 'Spring Webinar' });
    await user.click(within(card).getByRole('button', { name: 'Create campaign from Spring Webinar' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring Webinar' })).toBeVisible();
    expect(router.state.location.pathname).toBe(`/campaigns/${id(7)}`);
    expect(api.state.created).toEqual([FINISHED_ID]);
    expect(screen.getByText('Version 1')).toBeVisible();
  });

  it('on its details page: opens the campaign made before (200), the same one', async () => {
    briefs.state.finished = [finishedBrief({ data: brief({ campaignName: 'Spring Webinar' }) })];
    api.state.fromBrief[FINISHED_ID] = made();
    api.state.campaigns = [made()];
    const { user, router } = renderRoute(`/tools/brief-creator/finished/${FINISHED_ID}`);
    await screen.findByRole('heading', { level: 1, name: 'Spring Webinar' });
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/campaigns/${id(7)}`));
    expect(await screen.findByText('Version 1')).toBeVisible();
    expect(api.state.campaigns).toHaveLength(1);
  });
});

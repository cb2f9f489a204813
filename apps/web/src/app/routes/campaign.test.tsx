import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Toasts } from '@/app/toasts';
import {
  campaign,
  campaignBrief,
  CAMPAIGN_ID,
  COLLEAGUE,
  fakeCampaignsApi,
} from '@/features/campaigns/testing/fake-campaigns-api';
import { serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

const server = serveApi();
const api = fakeCampaignsApi(server);

async function openCampaign(id = CAMPAIGN_ID) {
  const view = renderRoute(`/campaigns/${id}`);
  render(<Toasts />);
  await screen.findByText(/^Version \d+$/);
  const brief = () => screen.getByRole('region', { name: 'Brief' });
  const settings = () => screen.getByRole('region', { name: 'Settings' });
  return { ...view, brief, settings };
}

describe('A campaign: its owner', () => {
  it('renames it in place, and keeps a name the server refuses at the field', async () => {
    api.state.campaigns = [campaign()];
    const { user } = await openCampaign();
    expect(screen.getByRole('heading', { level: 1, name: 'Spring Webinar' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Spring Webinar · GEM'));
    expect(screen.getByText('Owner', { selector: 'span' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const name = screen.getByLabelText('Campaign name');
    expect(name).toHaveFocus();
    await user.clear(name);
    await user.type(name, 'Spring CFO Webinar{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring CFO Webinar' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Spring CFO Webinar · GEM'));

    // An empty name is refused by the server in words, at the field; the text stays.
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    await user.clear(screen.getByLabelText('Campaign name'));
    await user.type(screen.getByLabelText('Campaign name'), ' ');
    server.on('PATCH', `/api/campaigns/${CAMPAIGN_ID}`, (_req, _raw, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            code: 'validation_failed',
            message: 'Some fields are not valid.',
            issues: [{ path: 'body.name', message: 'The name is empty.' }],
          },
        }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('The name is empty.')).toBeVisible();
    expect(screen.getByLabelText('Campaign name')).toHaveAttribute('aria-invalid', 'true');
    await user.keyboard('{Escape}');
    expect(screen.getByRole('heading', { level: 1, name: 'Spring CFO Webinar' })).toBeVisible();
  });

  it('moves its status and opens the activity', async () => {
    api.state.campaigns = [campaign()];
    const { user } = await openCampaign();
    await user.selectOptions(screen.getByLabelText('Status'), 'Active');
    await waitFor(() => expect(api.state.patches).toEqual([{ status: 'active' }]));
    await user.click(screen.getByRole('button', { name: 'Show activity' }));
    const activity = await screen.findByRole('list', { name: 'Activity' });
    expect(within(activity).getAllByRole('listitem')[0]).toHaveTextContent(
      'Status changed · Planning → Active',
    );
    expect(within(activity).getAllByRole('listitem')[0]).toHaveTextContent('Marketer');
    expect(screen.getByRole('button', { name: 'Hide activity' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('edits the brief as a new version, listed with the fields it changed', async () => {
    api.state.campaigns = [campaign()];
    const { user, brief } = await openCampaign();
    await user.click(within(brief()).getByRole('button', { name: 'Edit brief' }));
    const form = within(brief()).getByRole('form', { name: 'Edit the brief' });
    await user.type(within(form).getByLabelText('Budget'), '50 000 PLN');
    const channels = within(form).getByLabelText('Channels');
    expect(channels).toHaveValue('LinkedIn\nNewsletter');
    await user.type(channels, '\n\n  Events  ');
    await user.click(within(form).getByRole('button', { name: 'Save brief' }));
    expect(await within(brief()).findByText('Version 2')).toBeVisible();
    expect(api.state.saves).toHaveLength(1);
    expect(api.state.saves[0]!.baseVersion).toBe(1);
    // Each line one item, blank lines left out.
    expect(api.state.saves[0]!.brief.channels).toEqual(['LinkedIn', 'Newsletter', 'Events']);
    expect(within(brief()).getByText('50 000 PLN')).toBeVisible();
    const versions = await screen.findByRole('list', { name: 'Brief versions' });
    await waitFor(() => expect(within(versions).getAllByRole('article')).toHaveLength(2));
    expect(within(versions).getByRole('article', { name: 'Version 2' })).toHaveTextContent(
      'Changed: Budget, Channels',
    );
  });
});

describe('A campaign: two people save its brief', () => {
  it('keeps what the user typed when someone saved first (409), compares, then saves it on top', async () => {
    api.state.campaigns = [campaign()];
    const { user, brief } = await openCampaign();
    await user.click(within(brief()).getByRole('button', { name: 'Edit brief' }));
    const form = within(brief()).getByRole('form', { name: 'Edit the brief' });
    await user.type(within(form).getByLabelText('Budget'), 'My budget: 80 000 PLN');
    await user.type(within(form).getByLabelText('Timeline'), 'May and June');

    // A colleague saves version 2 meanwhile.
    api.saveAsSomeoneElse(CAMPAIGN_ID, campaignBrief({ budget: 'Their budget: 40 000 PLN' }));
    await user.click(within(form).getByRole('button', { name: 'Save brief' }));

    const conflict = await within(form).findByRole('alert');
    expect(conflict).toHaveTextContent('nothing you typed is lost');
    expect(
      await within(conflict).findByText(
        'Ola Nowak saved version 2 of this brief while you were editing version 1.',
      ),
    ).toBeVisible();
    // Nothing typed is lost.
    expect(within(form).getByLabelText('Budget')).toHaveValue('My budget: 80 000 PLN');
    expect(within(form).getByLabelText('Timeline')).toHaveValue('May and June');

    await user.click(within(conflict).getByRole('button', { name: 'Compare with version 2' }));
    const comparison = within(conflict).getByRole('group', { name: 'Version 2 and yours' });
    expect(
      within(comparison)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Budget', 'Timeline']);
    expect(comparison).toHaveTextContent('Their budget: 40 000 PLN');
    expect(comparison).toHaveTextContent('My budget: 80 000 PLN');

    await user.click(within(conflict).getByRole('button', { name: 'Save mine as version 3' }));
    expect(await within(brief()).findByText('Version 3')).toBeVisible();
    expect(api.state.saves.map((s) => s.baseVersion)).toEqual([1, 2]);
    expect(within(brief()).getByText('My budget: 80 000 PLN')).toBeVisible();
  });

  it('or takes the newest version instead of the typed text, when the user chooses so', async () => {
    api.state.campaigns = [campaign()];
    const { user, brief } = await openCampaign();
    await user.click(within(brief()).getByRole('button', { name: 'Edit brief' }));
    const form = within(brief()).getByRole('form', { name: 'Edit the brief' });
    await user.type(within(form).getByLabelText('Budget'), 'Mine');
    api.saveAsSomeoneElse(CAMPAIGN_ID, campaignBrief({ budget: 'Theirs' }));
    await user.click(within(form).getByRole('button', { name: 'Save brief' }));
    const conflict = await within(form).findByRole('alert');
    await user.click(
      await within(conflict).findByRole('button', { name: 'Discard mine and load version 2' }),
    );
    expect(within(form).getByLabelText('Budget')).toHaveValue('Theirs');
    expect(within(form).queryByRole('alert')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Save brief' }));
    expect(await within(brief()).findByText('Version 3')).toBeVisible();
    expect(api.state.saves.map((s) => s.baseVersion)).toEqual([1, 2]);
  });
});

describe('A campaign: its settings', () => {
  it("shows the server's 400 at the field it is about, and keeps what was typed", async () => {
    api.state.campaigns = [campaign()];
    api.state.people['ola@example.com'] = COLLEAGUE;
    const { user, settings } = await openCampaign();

    const crm = within(settings()).getByLabelText('CRM campaign ID');
    await user.type(crm, '701000000000000XYZ');
    await user.click(within(settings()).getByRole('button', { name: 'Save CRM campaign ID' }));
    expect(
      await within(settings()).findByText('The CRM has no campaign with the id 701000000000000XYZ.'),
    ).toBeVisible();
    expect(crm).toHaveValue('701000000000000XYZ');
    expect(crm).toHaveAccessibleDescription(/The CRM has no campaign/);
    await user.clear(crm);
    await user.type(crm, '701000000000000AAA');
    await user.click(within(settings()).getByRole('button', { name: 'Save CRM campaign ID' }));
    await waitFor(() => expect(api.state.patches.at(-1)).toEqual({ crmCampaignId: '701000000000000AAA' }));
    expect(within(settings()).queryByText(/The CRM has no campaign/)).toBeNull();

    const landing = within(settings()).getByLabelText('Landing page');
    await user.type(landing, 'www example');
    await user.click(within(settings()).getByRole('button', { name: 'Save Landing page' }));
    expect(await within(settings()).findByText(/The landing page must be a whole web address/)).toBeVisible();
    expect(landing).toHaveValue('www example');

    const email = within(settings()).getByRole('textbox', {
      name: 'Add an editor by the e-mail they sign in to GEM with',
    });
    await user.type(email, 'nobody@example.com');
    await user.click(within(settings()).getByRole('button', { name: 'Add editor' }));
    expect(
      await within(settings()).findByText(/No one has signed in to GEM as nobody@example.com yet/),
    ).toBeVisible();
    await user.clear(email);
    await user.type(email, 'ola@example.com{Enter}');
    expect(await within(settings()).findByText('Ola Nowak')).toBeVisible();
    expect(email).toHaveValue('');
    await user.click(within(settings()).getByRole('button', { name: 'Remove Ola Nowak' }));
    expect(await within(settings()).findByText('No editors yet.')).toBeVisible();

    await user.click(within(settings()).getByRole('radio', { name: /Team/ }));
    await waitFor(() => expect(api.state.patches.at(-1)).toEqual({ sharing: 'team' }));
    expect(within(settings()).getByRole('radio', { name: /Team/ })).toBeChecked();
  });
});

describe('A campaign: a reader', () => {
  it('sees everything read only, and duplicates it as a copy of their own', async () => {
    api.state.campaigns = [
      campaign({
        owner: COLLEAGUE,
        role: 'reader',
        sharing: 'team',
        status: 'active',
        crmCampaignId: '701000000000000AAA',
        editors: [{ id: '10000000-0000-4000-8000-000000000003', name: 'Jan Kowalski' }],
      }),
    ];
    const { user, brief, settings, router } = await openCampaign();
    expect(screen.getByText('Reader · read only')).toBeVisible();
    expect(screen.getByText(/Ola Nowak shared this campaign with the team: you can read it/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
    expect(screen.queryByLabelText('Status')).toBeNull();
    expect(screen.getByText('Active')).toBeVisible();
    expect(within(brief()).queryByRole('button', { name: 'Edit brief' })).toBeNull();
    expect(within(brief()).getByText('Leads from CFOs')).toBeVisible();
    // The settings say what they are; there is nothing to type in or choose.
    expect(within(settings()).queryAllByRole('textbox')).toEqual([]);
    expect(within(settings()).queryAllByRole('radio')).toEqual([]);
    expect(within(settings()).queryAllByRole('button')).toEqual([]);
    expect(settings()).toHaveTextContent('Shared with the team (read only)');
    expect(settings()).toHaveTextContent('701000000000000AAA');
    expect(settings()).toHaveTextContent('Jan Kowalski');
    expect(settings()).toHaveTextContent('Landing pageNot set');

    await user.click(screen.getByRole('button', { name: 'Duplicate' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring Webinar (copy)' })).toBeVisible();
    expect(router.state.location.pathname).not.toBe(`/campaigns/${CAMPAIGN_ID}`);
    expect(screen.getByText('Owner', { selector: 'span' })).toBeVisible();
    expect(await screen.findByText('“Spring Webinar (copy)” is your own copy.')).toBeVisible();
    expect(within(brief()).getByRole('button', { name: 'Edit brief' })).toBeVisible();
  });

  it('says a campaign it may not see (404) is not found', async () => {
    renderRoute('/campaigns/c0000000-0000-4000-8000-999999999999');
    expect(await screen.findByRole('heading', { level: 1, name: 'Campaign not found' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Campaign not found · GEM'));
    expect(screen.getByRole('link', { name: 'See all campaigns' })).toHaveAttribute('href', '/campaigns');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import {
  campaign,
  CAMPAIGN_ID,
  COLLEAGUE,
  fakeCampaignsApi,
} from '@/features/campaigns/testing/fake-campaigns-api';
import { serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { CRM_ID, fakeAudienceApi, savedSegment } from './testing/fake-audience-api';

const server = serveApi();
const campaigns = fakeCampaignsApi(server);
const api = fakeAudienceApi(server, campaigns);

/** The campaign's page, once its audience has loaded. */
async function openAudience() {
  const view = renderRoute(`/campaigns/${CAMPAIGN_ID}`);
  const section = await screen.findByRole('region', { name: 'Audience' });
  await waitFor(() => expect(within(section).queryByText('Loading the audience…')).toBeNull());
  return { ...view, section };
}

const contacts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `003000000000000${String(i).padStart(3, '0')}`,
    name: `Contact ${i}`,
  }));

describe('A campaign’s audience', () => {
  it('adds a segment to the CRM campaign: the dry run, the confirmation, the result with a refused contact', async () => {
    campaigns.state.campaigns = [campaign({ crmCampaignId: CRM_ID })];
    api.state.segments = [savedSegment()];
    api.state.contacts = contacts(5);
    api.state.members = new Set([api.state.contacts[0]!.id]);
    api.state.refuses = { [api.state.contacts[4]!.id]: 'The contact has no e-mail address.' };
    const { section, user } = await openAudience();

    expect(within(section).getByText(/Targets the CRM campaign/)).toHaveTextContent(CRM_ID);
    const builder = within(section).getByRole('link', { name: 'Open the audience builder' });
    const target = new URL(builder.getAttribute('href')!, 'http://x');
    expect(target.pathname).toBe('/tools/campaign-audience-builder');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      campaignId: CRM_ID,
      goal: 'Leads from CFOs',
      forCampaign: CAMPAIGN_ID,
    });

    const card = within(within(section).getByRole('list', { name: 'Saved segments' })).getByRole('listitem', {
      name: 'New prospects in the segment',
    });
    expect(card).toHaveTextContent('New prospects');
    expect(card).toHaveTextContent('saved by Marketer');
    expect(within(card).getByRole('link', { name: /Open the report/ })).toHaveAttribute(
      'href',
      savedSegment().reportUrl,
    );

    await user.click(within(card).getByRole('button', { name: 'Add to CRM campaign' }));
    expect(
      await within(card).findByText('Dry run: 5 contacts: 4 new, 1 already a member of Spring Webinar 2026.'),
    ).toBeVisible();
    expect(api.state.runs).toEqual([]);
    await user.click(within(card).getByRole('button', { name: 'Add 4 contacts to Spring Webinar 2026' }));

    expect(
      await within(card).findByText('Added 3 contacts · 1 already a member · 1 refused by the CRM.'),
    ).toBeVisible();
    const refused = within(card).getByRole('region', { name: /The refused contacts and why/ });
    expect(within(refused).getByRole('rowheader', { name: /Contact 4/ })).toBeVisible();
    expect(within(refused).getByRole('cell', { name: 'The contact has no e-mail address.' })).toBeVisible();
    expect(card).toHaveTextContent('Running it again retries only the refused contacts');

    // The run joins the history.
    const runs = await within(section).findByRole('region', { name: 'Added to the CRM campaign' });
    const row = within(runs).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(expect.arrayContaining(['Marketer', '5', '3', '1']));

    // Again: the refused one is the only one left to add.
    await user.click(within(card).getByRole('button', { name: 'Done' }));
    delete api.state.refuses[api.state.contacts[4]!.id];
    await user.click(within(card).getByRole('button', { name: 'Add to CRM campaign' }));
    expect(
      await within(card).findByText('Dry run: 5 contacts: 1 new, 4 already members of Spring Webinar 2026.'),
    ).toBeVisible();
    await user.click(within(card).getByRole('button', { name: 'Add 1 contact to Spring Webinar 2026' }));
    expect(await within(card).findByText('Added 1 contact · 4 already members.')).toBeVisible();
    await waitFor(() => expect(within(runs).getAllByRole('row')).toHaveLength(3));
  });

  it('without a CRM campaign, points to the setting, and the dry run’s 400 is said in words', async () => {
    campaigns.state.campaigns = [campaign()];
    api.state.segments = [savedSegment()];
    const { section, user } = await openAudience();

    expect(within(section).getByText(/No CRM campaign yet/)).toBeVisible();
    await user.click(within(section).getByRole('link', { name: 'Set its CRM campaign ID in the settings' }));
    expect(screen.getByRole('textbox', { name: 'CRM campaign ID' })).toHaveFocus();
    // Without a CRM id, the builder opens with the goal only.
    const target = new URL(
      within(section).getByRole('link', { name: 'Open the audience builder' }).getAttribute('href')!,
      'http://x',
    );
    expect(target.searchParams.has('campaignId')).toBe(false);

    await user.click(within(section).getByRole('button', { name: 'Add to CRM campaign' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'This campaign has no CRM campaign yet. Set its CRM campaign ID in the campaign’s settings first.',
    );
  });

  it('removes a saved segment', async () => {
    campaigns.state.campaigns = [campaign({ crmCampaignId: CRM_ID })];
    api.state.segments = [savedSegment()];
    const { section, user } = await openAudience();
    await user.click(within(section).getByRole('button', { name: 'Remove New prospects in the segment' }));
    expect(await within(section).findByText(/No segment saved yet/)).toBeVisible();
  });

  it('shows a reader the segments and the runs, without a control', async () => {
    campaigns.state.campaigns = [
      campaign({ crmCampaignId: CRM_ID, role: 'reader', owner: COLLEAGUE, sharing: 'team' }),
    ];
    api.state.segments = [savedSegment({ savedBy: COLLEAGUE })];
    api.state.runs = [
      {
        id: 'f0000000-0000-4000-8000-000000000001',
        segmentLabel: 'New prospects in the segment',
        crmCampaignId: CRM_ID,
        by: COLLEAGUE,
        at: '2026-03-14T10:30:00.000Z',
        total: 12,
        added: 10,
        alreadyMembers: 2,
        failedCount: 0,
        failed: [],
      },
    ];
    const { section } = await openAudience();
    expect(within(section).getByRole('listitem', { name: 'New prospects in the segment' })).toHaveTextContent(
      'saved by Ola Nowak',
    );
    expect(within(section).getByRole('region', { name: 'Added to the CRM campaign' })).toHaveTextContent(
      'Ola Nowak',
    );
    expect(within(section).queryByRole('button')).toBeNull();
    expect(within(section).queryByRole('link', { name: 'Open the audience builder' })).toBeNull();
    expect(within(section).getByRole('link', { name: /Open the report/ })).toBeVisible();
  });
});

import { campaignAudiencePath } from '@gem/contracts/campaign-audience';
import { campaignAudienceBuilderPaths } from '@gem/contracts/campaign-audience-builder';
import { render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { Toasts } from '@/app/toasts';
import {
  CAMPAIGN_ID as CRM_ID,
  campaigns as crmCampaigns,
  PAST_ID,
  segmentsResponse,
} from '@/features/campaign-audience-builder/testing/fixtures';
import { fakeAudienceApi } from '@/features/campaigns/audience/testing/fake-audience-api';
import { campaign, CAMPAIGN_ID, fakeCampaignsApi } from '@/features/campaigns/testing/fake-campaigns-api';
import { json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

const server = serveApi();
const campaigns = fakeCampaignsApi(server);
const audience = fakeAudienceApi(server, campaigns);
let generated: unknown[] = [];

beforeEach(() => {
  generated = [];
  server.on('GET', campaignAudienceBuilderPaths.campaigns, (_req, _raw, res) => json(res, 200, crmCampaigns));
  server.on('POST', campaignAudienceBuilderPaths.generate, (_req, raw, res) => {
    generated.push(JSON.parse(raw));
    json(res, 200, segmentsResponse());
  });
});

const opened = `/tools/campaign-audience-builder?campaignId=${CRM_ID}&goal=${encodeURIComponent(
  'Leads from CFOs',
)}&forCampaign=${CAMPAIGN_ID}`;

async function generateFromCampaign() {
  campaigns.state.campaigns = [campaign({ crmCampaignId: CRM_ID })];
  const view = renderRoute(opened);
  render(<Toasts />);
  const notice = await screen.findByText(/Building the audience of/);
  await waitFor(() => expect(notice).toHaveTextContent('Building the audience of Spring Webinar'));
  // The campaign's CRM id and objective are filled in.
  expect(screen.getByRole('textbox', { name: 'Campaign ID' })).toHaveValue(CRM_ID);
  expect(screen.getByRole('textbox', { name: 'Marketing Goal' })).toHaveValue('Leads from CFOs');
  await view.user.click(screen.getByRole('button', { name: 'Generate Segments' }));
  await screen.findByRole('heading', { level: 5, name: 'New prospects in the segment' });
  expect(generated).toEqual([{ campaignId: CRM_ID, topic: 'Leads from CFOs' }]);
  return view;
}

describe('The audience builder opened from a campaign', () => {
  it('saves a report to the campaign as a segment, and a toast leads back to it', async () => {
    const { user } = await generateFromCampaign();
    const report = segmentsResponse().reports.find((r) => r.type === 'past-responders')!;
    await user.click(screen.getByRole('button', { name: `Save to campaign: ${report.title}` }));

    const toast = await screen.findByText(/Saved “.*” to “Spring Webinar”/);
    expect(audience.state.saved).toEqual([
      {
        label: report.title,
        report: {
          type: 'past-responders',
          campaignId: CRM_ID,
          segment: {
            subIndustries: ['Commercial Banking', 'Insurance'],
            roles: ['Finance'],
            titles: ['Chief Financial Officer', 'Finance Director'],
            workAreas: [],
            employeeBands: ['50-249', '250-999'],
            revenueBands: [],
          },
          pastCampaignIds: [PAST_ID],
        },
        reportUrl: report.url,
      },
    ]);
    expect(screen.getByRole('button', { name: `Saved to campaign: ${report.title}` })).toBeDisabled();

    await user.click(
      within(toast.closest('[role="alert"], .Toastify__toast') ?? toast).getByRole('link', {
        name: 'Open the campaign',
      }),
    );
    const section = await screen.findByRole('region', { name: 'Audience' });
    expect(await within(section).findByRole('listitem', { name: report.title })).toBeVisible();
  });

  it('says in words why a report could not be saved', async () => {
    const { user } = await generateFromCampaign();
    server.on('POST', campaignAudiencePath(CAMPAIGN_ID), (_req, _raw, res) =>
      json(res, 400, {
        error: {
          code: 'validation_failed',
          message: 'A campaign keeps at most 20 segments. Remove one first.',
          requestId: 'req-test',
        },
      }),
    );
    const title = segmentsResponse().reports[0]!.title;
    await user.click(screen.getByRole('button', { name: `Save to campaign: ${title}` }));
    expect(await screen.findByText('A campaign keeps at most 20 segments. Remove one first.')).toBeVisible();
    expect(screen.getByRole('button', { name: `Save to campaign: ${title}` })).toBeEnabled();
  });

  it('offers no Save to campaign when opened on its own', async () => {
    const view = renderRoute('/tools/campaign-audience-builder');
    await screen.findByRole('heading', { level: 1, name: 'Campaign audience builder' });
    await view.user.type(screen.getByRole('textbox', { name: 'Campaign ID' }), CRM_ID);
    await view.user.type(screen.getByRole('textbox', { name: 'Marketing Goal' }), 'More CFOs');
    await view.user.click(screen.getByRole('button', { name: 'Generate Segments' }));
    await screen.findByRole('heading', { level: 5, name: 'New prospects in the segment' });
    expect(screen.queryByRole('button', { name: /Save to campaign/ })).toBeNull();
    await waitFor(() => expect(screen.queryByText(/Building the audience of/)).toBeNull());
  });
});

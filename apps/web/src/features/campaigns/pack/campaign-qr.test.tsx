import { campaignPath } from '@gem/contracts/campaigns';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useCampaign } from '@/features/campaigns/api/get-campaign';
import { campaign, CAMPAIGN_ID, fakeCampaignsApi } from '@/features/campaigns/testing/fake-campaigns-api';
import { createQueryClient } from '@/lib/query-client';
import { json, serveApi } from '@/testing/api-server';

import { catchDownloads, type SavedFile } from '@/testing/downloads';

import { CampaignQr } from './campaign-qr';

const server = serveApi();
const api = fakeCampaignsApi(server);

const LANDING = 'https://www.example.com/webinar';
const TARGET = 'https://www.example.com/webinar?utm_source=qr&utm_medium=print&utm_campaign=spring-webinar';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The block as the campaign's page shows it: with the campaign as the server answers it now. */
function Shown() {
  const query = useCampaign(CAMPAIGN_ID);
  return query.data ? <CampaignQr campaign={query.data} /> : null;
}

async function renderQr() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Shown />
    </QueryClientProvider>,
  );
  const section = await screen.findByRole('region', { name: 'QR code' });
  return { user, section };
}

/** Moves a range input to a value (user-event cannot drag a slider). */
const slide = (slider: HTMLElement, value: number) =>
  fireEvent.change(slider, { target: { value: String(value) } });

describe('The campaign’s QR code', () => {
  let saved: SavedFile[];

  beforeEach(() => {
    saved = catchDownloads();
  });

  afterEach(() => vi.restoreAllMocks());

  it('shows the code of the landing page with its UTM tags, and the settings at the defaults', async () => {
    api.state.campaigns = [campaign({ landingUrl: LANDING })];
    const { section } = await renderQr();

    expect(
      within(section).getByRole('img', { name: `QR code for the landing page: ${TARGET}` }),
    ).toBeVisible();
    const link = within(section).getByRole('link', { name: TARGET });
    expect(link).toHaveAttribute('href', TARGET);
    const list = within(section).getByLabelText('UTM tags');
    expect([...list.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual([
      'utm_source',
      'utm_medium',
      'utm_campaign',
    ]);
    expect([...list.querySelectorAll('dd')].map((dd) => dd.textContent)).toEqual([
      'qr',
      'print',
      'spring-webinar',
    ]);

    expect(within(section).getByText('The defaults')).toBeVisible();
    expect(within(section).getByRole('slider', { name: 'Size' })).toHaveAttribute(
      'aria-valuetext',
      '200 pt · 70.6 mm',
    );
    expect(within(section).getByRole('slider', { name: 'Resolution' })).toHaveAttribute(
      'aria-valuetext',
      '300 DPI · print quality',
    );
    // Nothing changed: nothing to save, and the campaign keeps no settings of its own.
    expect(within(section).getByRole('button', { name: 'Save settings' })).toBeDisabled();
    expect(within(section).queryByRole('button', { name: 'Use the defaults' })).toBeNull();
  });

  it('saves a changed size with the campaign, then says so', async () => {
    api.state.campaigns = [campaign({ landingUrl: LANDING })];
    const { user, section } = await renderQr();
    const padding = Number(within(section).getByRole('slider', { name: 'Padding' }).getAttribute('value'));

    slide(within(section).getByRole('slider', { name: 'Size' }), 300);
    expect(within(section).getByRole('slider', { name: 'Size' })).toHaveAttribute(
      'aria-valuetext',
      '300 pt · 105.8 mm',
    );
    expect(within(section).getByText(/^Not saved yet/)).toHaveAttribute('role', 'status');
    await user.click(within(section).getByRole('button', { name: 'Save settings' }));

    expect(await within(section).findByText(/^Saved\./)).toHaveAttribute('role', 'status');
    expect(api.state.patches).toEqual([{ qr: { size: 300, padding, dpi: 300 } }]);
    expect(within(section).getByText('The campaign’s own settings')).toBeVisible();
    expect(within(section).getByRole('button', { name: 'Save settings' })).toBeDisabled();
  });

  it('goes back to the defaults with qr: null', async () => {
    api.state.campaigns = [campaign({ landingUrl: LANDING, qr: { size: 400, padding: 8, dpi: 150 } })];
    const { user, section } = await renderQr();
    expect(within(section).getByRole('slider', { name: 'Size' })).toHaveAttribute(
      'aria-valuetext',
      '400 pt · 141.1 mm',
    );

    await user.click(within(section).getByRole('button', { name: 'Use the defaults' }));
    expect(
      await within(section).findByText('Saved. The QR code is made with the defaults again.'),
    ).toBeVisible();
    expect(api.state.patches).toEqual([{ qr: null }]);
    expect(within(section).getByRole('slider', { name: 'Size' })).toHaveAttribute(
      'aria-valuetext',
      '200 pt · 70.6 mm',
    );
    expect(within(section).queryByRole('button', { name: 'Use the defaults' })).toBeNull();
  });

  it('says what the server refused, in its words', async () => {
    api.state.campaigns = [campaign({ landingUrl: LANDING })];
    server.on('PATCH', campaignPath(CAMPAIGN_ID), (_req, _body, res) =>
      json(res, 400, {
        error: {
          code: 'validation_failed',
          message: 'Some fields are not valid.',
          issues: [{ path: 'body.qr.size', message: 'The size must be at most 500 pt.' }],
          requestId: 'r-1',
        },
      }),
    );
    const { user, section } = await renderQr();
    slide(within(section).getByRole('slider', { name: 'Size' }), 250);
    await user.click(within(section).getByRole('button', { name: 'Save settings' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('The size must be at most 500 pt.');
  });

  it('lets a reader see and download the code, but not change it', async () => {
    api.state.campaigns = [
      campaign({ landingUrl: LANDING, role: 'reader', qr: { size: 250, padding: 16, dpi: 300 } }),
    ];
    const { section } = await renderQr();
    expect(within(section).getByRole('img', { name: /^QR code for the landing page/ })).toBeVisible();
    expect(within(section).getByRole('link', { name: TARGET })).toBeVisible();
    expect(within(section).queryByRole('slider')).toBeNull();
    expect(within(section).getByText('250 pt · 88.2 mm')).toBeVisible();
    expect(within(section).queryByRole('button', { name: 'Save settings' })).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Use the defaults' })).toBeNull();
    expect(within(section).getByRole('button', { name: 'Download PNG' })).toBeEnabled();
    expect(within(section).getByRole('button', { name: 'Download SVG' })).toBeEnabled();
  });

  it('asks for a landing page when the campaign has none', async () => {
    api.state.campaigns = [campaign()];
    const { section } = await renderQr();
    expect(section).toHaveTextContent(/No landing page yet: set the campaign’s Landing page in its settings/);
    expect(within(section).getByRole('link', { name: 'settings' })).toHaveAttribute(
      'href',
      '#campaign-settings',
    );
    expect(within(section).queryByRole('img')).toBeNull();
    expect(within(section).queryByRole('button')).toBeNull();
  });

  it('says when the settings do not fit the code, and offers nothing to save or download', async () => {
    // About 950 bytes: a code of 105 × 105 modules, more than 100 pt gives at 72 DPI.
    api.state.campaigns = [campaign({ landingUrl: `${LANDING}/${'a'.repeat(860)}` })];
    const { section } = await renderQr();
    slide(within(section).getByRole('slider', { name: 'Size' }), 100);
    slide(within(section).getByRole('slider', { name: 'Resolution' }), 72);
    expect(within(section).getByRole('alert')).toHaveTextContent(
      /^This link needs \d+ × \d+ modules, more than the 100 pixels this size gives at 72 DPI/,
    );
    expect(within(section).getByRole('button', { name: 'Save settings' })).toBeDisabled();
    expect(within(section).getByRole('button', { name: 'Download PNG' })).toBeDisabled();
    expect(within(section).getByRole('button', { name: 'Download SVG' })).toBeDisabled();
  });

  it('downloads the code as PNG and SVG, named after the campaign', async () => {
    api.state.campaigns = [campaign({ landingUrl: LANDING })];
    const { user, section } = await renderQr();

    await user.click(within(section).getByRole('button', { name: 'Download PNG' }));
    expect(await within(section).findByText('PNG downloaded: Spring Webinar QR code.png.')).toBeVisible();
    await user.click(within(section).getByRole('button', { name: 'Download SVG' }));
    expect(within(section).getByText('SVG downloaded: Spring Webinar QR code.svg.')).toBeVisible();

    expect(saved.map((file) => [file.name, file.blob.type])).toEqual([
      ['Spring Webinar QR code.png', 'image/png'],
      ['Spring Webinar QR code.svg', 'image/svg+xml'],
    ]);
    const png = new Uint8Array(await saved[0]!.blob.arrayBuffer());
    expect([...png.slice(0, 8)]).toEqual(PNG_SIGNATURE);
    const svg = await saved[1]!.blob.text();
    expect(svg).toMatch(/^(<\?xml[^>]*>\s*)?<svg[\s>]/);
    expect(svg).toContain('</svg>');
  });
});

import { campaignPackPath } from '@gem/contracts/campaign-pack';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { campaign } from '@/features/campaigns/testing/fake-campaigns-api';
import { DOCX_TYPE } from '@/lib/brief-export/brief-export';
import { createQueryClient } from '@/lib/query-client';
import { json, serveApi } from '@/testing/api-server';

import { CampaignPackButton } from './campaign-pack-button';
import { emptyPack, testPack } from './testing/test-pack';

const server = serveApi();

/** The first build loads docx and exceljs: wait for its status longer than a query's default. */
const building = { timeout: 15_000 };

type Saved = { blob: Blob; name: string };

describe('Download pack', () => {
  let saved: Saved[];

  beforeEach(() => {
    saved = [];
    const blobs = new Map<string, Blob>();
    // jsdom has no object URLs and does not download: both are stood in for.
    URL.createObjectURL = vi.fn((blob: Blob) => {
      const url = `blob:test/${blobs.size}`;
      blobs.set(url, blob);
      return url;
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ blob: blobs.get(this.href)!, name: this.download });
    });
  });

  afterEach(() => vi.restoreAllMocks());

  function renderButton() {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <CampaignPackButton campaign={campaign()} />
      </QueryClientProvider>,
    );
    return user;
  }

  const packRequests = () =>
    server.state.requests.filter((r) => r.url.pathname === campaignPackPath(campaign().id)).length;

  it('asks the server for the pack on every download and saves the ZIP, then the Word document', async () => {
    let pack = testPack();
    server.on('GET', campaignPackPath(campaign().id), (_req, _body, res) => json(res, 200, pack));
    const user = renderButton();

    await user.click(screen.getByRole('button', { name: 'Download pack' }));
    expect(
      await screen.findByText('Pack downloaded: 2 approved assets, 2 tracked links.', {}, building),
    ).toHaveAttribute('role', 'status');
    expect(saved.map((file) => [file.name, file.blob.type])).toEqual([
      ['Spring Webinar pack.zip', 'application/zip'],
    ]);
    const files = unzipSync(new Uint8Array(await saved[0]!.blob.arrayBuffer()));
    expect(Object.keys(files)).toEqual([
      'Spring Webinar pack.docx',
      'Spring Webinar brief.xlsx',
      'qr-code.png',
      'qr-code.svg',
      'links.csv',
    ]);

    // Nothing approved by now: the next download says so, asked for again (not from the cache).
    pack = emptyPack();
    await user.click(screen.getByRole('button', { name: 'Word document' }));
    expect(
      await screen.findByText(
        'Word document downloaded: the brief only, no asset is approved yet.',
        {},
        building,
      ),
    ).toBeVisible();
    expect(saved[1]).toMatchObject({ name: 'Spring Webinar pack.docx' });
    expect(saved[1]?.blob.type).toBe(DOCX_TYPE);
    const document = strFromU8(
      unzipSync(new Uint8Array(await saved[1]!.blob.arrayBuffer()))['word/document.xml']!,
    );
    expect(document).toContain('No asset is approved yet');
    expect(packRequests()).toBe(2);
  });

  it('says what went wrong in the server’s words, and saves nothing', async () => {
    server.on('GET', campaignPackPath(campaign().id), (_req, _body, res) =>
      json(res, 404, { error: { code: 'not_found', message: 'Campaign not found.', requestId: 'r-1' } }),
    );
    const user = renderButton();
    await user.click(screen.getByRole('button', { name: 'Download pack' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Campaign not found.');
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Download pack' })).toBeEnabled();
  });
});

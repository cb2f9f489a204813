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

import { catchDownloads, type SavedFile } from '@/testing/downloads';

import { CampaignPackButton } from './campaign-pack-button';
import { emptyPack, testPack } from './testing/test-pack';

const server = serveApi();

/** The first build loads docx and exceljs: wait for its status longer than a query's default. */
const building = { timeout: 15_000 };

describe('Download pack', () => {
  let saved: SavedFile[];

  beforeEach(() => {
    saved = catchDownloads();
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

  it('puts each saved segment’s contacts in the ZIP as the CRM has them now, or the report’s link where the CRM keeps it', async () => {
    const csvPath = (campaignId: string) => `/api/sf/report.csv?type=follow-up&campaignId=${campaignId}`;
    server.on('GET', campaignPackPath(campaign().id), (_req, _body, res) =>
      json(res, 200, {
        ...testPack(),
        audience: [
          { label: 'CFOs: no answer', csvPath: csvPath('701000000000001AAA'), reportUrl: null },
          { label: 'CFOs: no answer', csvPath: csvPath('701000000000002AAA'), reportUrl: null },
          {
            label: 'Salesforce segment',
            csvPath: null,
            reportUrl: 'https://crm.example/lightning/r/Report/00O1/view',
          },
        ],
      }),
    );
    const asked: string[] = [];
    server.on('GET', '/api/sf/report.csv', (req, _body, res) => {
      asked.push(new URL(req.url!, 'http://gem.test').search);
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      res.end(`\ufeffContact ID,Name\r\n003000000000001AAA,Anna Nowak (${asked.length})\r\n`);
    });
    const user = renderButton();
    await user.click(screen.getByRole('button', { name: 'Download pack' }));
    expect(
      await screen.findByText(
        'Pack downloaded: 2 approved assets, 2 tracked links, the audience of 3 segments.',
        {},
        building,
      ),
    ).toBeVisible();
    expect(asked).toEqual([
      '?type=follow-up&campaignId=701000000000001AAA',
      '?type=follow-up&campaignId=701000000000002AAA',
    ]);
    const files = unzipSync(new Uint8Array(await saved[0]!.blob.arrayBuffer()));
    expect(Object.keys(files).filter((name) => name.startsWith('audience/'))).toEqual([
      'audience/CFOs no answer.csv',
      'audience/CFOs no answer (2).csv',
      'audience/Salesforce segment.txt',
    ]);
    expect(strFromU8(files['audience/CFOs no answer (2).csv']!)).toContain('Anna Nowak (2)');
    expect(strFromU8(files['audience/Salesforce segment.txt']!)).toContain(
      'https://crm.example/lightning/r/Report/00O1/view',
    );
  });

  it('makes no pack when a segment’s contacts cannot be read, and says which and why', async () => {
    server.on('GET', campaignPackPath(campaign().id), (_req, _body, res) =>
      json(res, 200, {
        ...testPack(),
        audience: [{ label: 'CFOs', csvPath: '/api/sf/report.csv?type=follow-up', reportUrl: null }],
      }),
    );
    server.on('GET', '/api/sf/report.csv', (_req, _body, res) =>
      json(res, 503, {
        error: {
          code: 'crm_unavailable',
          message: 'The CRM is not answering. Try again in a minute.',
          requestId: 'r-2',
        },
      }),
    );
    const user = renderButton();
    await user.click(screen.getByRole('button', { name: 'Download pack' }));
    expect(await screen.findByRole('alert', {}, building)).toHaveTextContent(
      'The contacts of “CFOs” could not be read from the CRM. The CRM is not answering. Try again in a minute.',
    );
    expect(saved).toEqual([]);
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

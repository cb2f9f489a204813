import type { CampaignPack } from '@gem/contracts/campaign-pack';
import type { Campaign } from '@gem/contracts/campaigns';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { saveFile } from '@/components/ui/download-button';
import { DownloadIcon } from '@/components/ui/icons';
import { api } from '@/lib/api-client';
import { blobOf, DOCX_TYPE } from '@/lib/brief-export/brief-export';
import { formatInteger } from '@/lib/format-number';

import { problemText } from '../problem-text';
import { campaignPackQueryOptions } from './api/get-campaign-pack';
import styles from './campaign-pack.module.css';

type Format = 'zip' | 'docx';

/** A segment's contacts as the audience builder exports them, with the user's token. */
async function readCsv(path: string): Promise<Uint8Array> {
  const blob = await api.download(path, { accept: 'text/csv' });
  return new Uint8Array(await blob.arrayBuffer());
}

const ZIP_TYPE = 'application/zip';

const plural = (count: number, one: string, many: string) =>
  `${formatInteger(count)} ${count === 1 ? one : many}`;

/** What was downloaded, in words. */
export function packSummary(pack: CampaignPack, format: Format): string {
  const links = pack.assets.reduce((sum, asset) => sum + asset.links.length, 0);
  const what = format === 'zip' ? 'Pack downloaded' : 'Word document downloaded';
  const audience =
    format === 'zip' && pack.audience.length > 0
      ? `, the audience of ${plural(pack.audience.length, 'segment', 'segments')}`
      : '';
  if (pack.assets.length === 0) return `${what}: the brief only${audience}, no asset is approved yet.`;
  return `${what}: ${plural(pack.assets.length, 'approved asset', 'approved assets')}, ${plural(links, 'tracked link', 'tracked links')}${audience}.`;
}

/**
 * 'Download pack': the campaign's approved assets, brief and tracked links as the server hands
 * them over now, made into a ZIP (the Word document, the brief's Excel, the QR code as PNG and
 * SVG, links.csv, each saved segment's contacts as CSV) or the Word document alone, in the browser. For anyone who may read the
 * campaign; the builders and their libraries load on the first download.
 */
export function CampaignPackButton({ campaign }: { campaign: Campaign }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<Format | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function download(format: Format) {
    setBusy(format);
    setStatus('');
    setError(null);
    try {
      const pack = await queryClient.fetchQuery(campaignPackQueryOptions(campaign.id));
      const files = await import('./pack-files');
      const file =
        format === 'zip'
          ? { ...(await files.buildPackZip(pack, readCsv)), type: ZIP_TYPE }
          : { ...(await files.buildPackDocxFile(pack)), type: DOCX_TYPE };
      saveFile({ blob: blobOf(file.bytes, file.type), name: file.name });
      setStatus(packSummary(pack, format));
    } catch (err) {
      setError(
        err instanceof Error && err.name === 'PackAudienceError'
          ? err.message
          : problemText(err, 'The pack could not be made. Try again.'),
      );
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className={styles.pack}>
      <div className={styles.actions}>
        <Button
          variant="brand"
          disabled={busy !== null}
          aria-busy={busy === 'zip' || undefined}
          onClick={() => void download('zip')}
        >
          <DownloadIcon />
          {busy === 'zip' ? 'Preparing pack…' : 'Download pack'}
        </Button>
        <Button
          variant="secondary"
          disabled={busy !== null}
          aria-busy={busy === 'docx' || undefined}
          onClick={() => void download('docx')}
        >
          <DownloadIcon />
          {busy === 'docx' ? 'Preparing document…' : 'Word document'}
        </Button>
      </div>
      <p className={styles.status} role="status">
        {status}
      </p>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

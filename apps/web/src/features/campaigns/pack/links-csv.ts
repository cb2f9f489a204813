import type { CampaignPack } from '@gem/contracts/campaign-pack';

import { looksLikeFormula } from '@/lib/brief-export/brief-values';

export const LINKS_CSV_HEADER = ['Channel', 'Version', 'Link as written', 'Tracked link'] as const;
/** The row of the QR code's target (the landing page tagged for print). */
export const QR_ROW_LABEL = 'QR code (print)';

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled.
 * One that a spreadsheet could take for a formula (=, +, -, @ …) gets an apostrophe first
 * (OWASP's advice for CSV), so opening the file never runs anything.
 */
function field(value: string): string {
  const safe = looksLikeFormula(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The pack's tracked links as CSV: one row per link of each approved asset (as written, and as
 * tagged), then the QR code's target. UTF-8 with a byte order mark and CRLF line ends, as Excel
 * opens it without asking.
 */
export function linksCsv(pack: CampaignPack): string {
  const rows: string[][] = [[...LINKS_CSV_HEADER]];
  for (const asset of pack.assets) {
    for (const link of asset.links)
      rows.push([asset.label, String(asset.version), link.written, link.tagged]);
  }
  if (pack.qrTarget && pack.campaign.landingUrl) {
    rows.push([QR_ROW_LABEL, '', pack.campaign.landingUrl, pack.qrTarget]);
  }
  return `\ufeff${rows.map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}

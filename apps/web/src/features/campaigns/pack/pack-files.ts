import type { CampaignPack } from '@gem/contracts/campaign-pack';
import { strToU8, zipSync, type Zippable } from 'fflate';

import { buildBriefWorkbook } from '@/lib/brief-export/brief-workbook';
import { briefFileName } from '@/lib/brief-export/file-name';

import { linksCsv } from './links-csv';
import { buildPackDocx } from './pack-docx';
import { buildPackQr } from './pack-qr';

/** The ZIP's fixed entries besides the document and the workbook. */
export const QR_PNG = 'qr-code.png';
export const QR_SVG = 'qr-code.svg';
export const LINKS_CSV = 'links.csv';

export type PackFile = { name: string; bytes: Uint8Array };

/** The pack's Word document, named after the campaign. */
export async function buildPackDocxFile(pack: CampaignPack): Promise<PackFile> {
  return { name: briefFileName(`${pack.campaign.name} pack`, 'docx'), bytes: await buildPackDocx(pack) };
}

/**
 * The pack as a ZIP: the Word document, the brief's Excel workbook (the brief creator's export
 * of its latest version), the QR code as PNG and SVG (when the campaign has a landing page) and
 * links.csv. The document, the workbook and the PNG are compressed already: they are stored.
 */
export async function buildPackZip(pack: CampaignPack): Promise<PackFile & { entries: string[] }> {
  const [document, workbook, qr] = await Promise.all([
    buildPackDocxFile(pack),
    buildBriefWorkbook({ title: pack.campaign.name, data: pack.brief.data }),
    pack.qrTarget ? buildPackQr(pack.qrTarget, pack.qr) : Promise.resolve(null),
  ]);
  const stored = { level: 0 } as const;
  const files: Zippable = {
    [document.name]: [document.bytes, stored],
    [briefFileName(`${pack.campaign.name} brief`, 'xlsx')]: [workbook, stored],
    ...(qr ? { [QR_PNG]: [qr.png, stored], [QR_SVG]: strToU8(qr.svg) } : {}),
    [LINKS_CSV]: strToU8(linksCsv(pack)),
  };
  return {
    name: briefFileName(`${pack.campaign.name} pack`, 'zip'),
    bytes: zipSync(files, { level: 6 }),
    entries: Object.keys(files),
  };
}

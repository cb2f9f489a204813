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

/** The folder of the audience's files in the ZIP. */
export const AUDIENCE_FOLDER = 'audience';

export type PackFile = { name: string; bytes: Uint8Array };

/** Reads a segment's contacts as CSV (the audience builder's export, with the user's token). */
export type ReadCsv = (path: string) => Promise<Uint8Array>;

/** A segment's contacts could not be read: the pack is not made without them. */
export class PackAudienceError extends Error {
  constructor(label: string, reason: string) {
    super(`The contacts of “${label}” could not be read from the CRM. ${reason}`);
    this.name = 'PackAudienceError';
  }
}

/**
 * The audience's files: each saved segment's contacts as CSV (read now, so the file is the
 * CRM as it stands), or, where the CRM keeps its reports itself, a note with the report's link.
 * Two segments of the same name get numbered files.
 */
async function audienceFiles(pack: CampaignPack, readCsv: ReadCsv): Promise<PackFile[]> {
  const taken = new Set<string>();
  const unique = (stem: string, extension: 'csv' | 'txt') => {
    let name = briefFileName(stem, extension);
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = briefFileName(`${stem} (${n})`, extension);
    taken.add(name.toLowerCase());
    return `${AUDIENCE_FOLDER}/${name}`;
  };
  const files: PackFile[] = [];
  for (const segment of pack.audience) {
    if (segment.csvPath) {
      const bytes = await readCsv(segment.csvPath).catch((err: unknown) => {
        throw new PackAudienceError(
          segment.label,
          err instanceof Error && err.message ? err.message : 'Try again.',
        );
      });
      files.push({ name: unique(segment.label, 'csv'), bytes });
    } else {
      const where = segment.reportUrl
        ? `Its contacts are in the CRM's report: ${segment.reportUrl}`
        : 'Its contacts are in the CRM: open the segment in the audience builder to find its report.';
      files.push({
        name: unique(segment.label, 'txt'),
        bytes: strToU8(`${segment.label}\r\n\r\n${where}\r\n`),
      });
    }
  }
  return files;
}

/** The pack's Word document, named after the campaign. */
export async function buildPackDocxFile(pack: CampaignPack): Promise<PackFile> {
  return { name: briefFileName(`${pack.campaign.name} pack`, 'docx'), bytes: await buildPackDocx(pack) };
}

/**
 * The pack as a ZIP: the Word document, the brief's Excel workbook (the brief creator's export
 * of its latest version), the QR code as PNG and SVG (when the campaign has a landing page, with
 * the settings it keeps), links.csv and the audience: each saved segment's contacts as CSV. The
 * document, the workbook and the PNG are compressed already: they are stored.
 */
export async function buildPackZip(
  pack: CampaignPack,
  readCsv: ReadCsv,
): Promise<PackFile & { entries: string[] }> {
  const [document, workbook, qr, audience] = await Promise.all([
    buildPackDocxFile(pack),
    buildBriefWorkbook({ title: pack.campaign.name, data: pack.brief.data }),
    pack.qrTarget ? buildPackQr(pack.qrTarget, pack.qr) : Promise.resolve(null),
    audienceFiles(pack, readCsv),
  ]);
  const stored = { level: 0 } as const;
  const files: Zippable = {
    [document.name]: [document.bytes, stored],
    [briefFileName(`${pack.campaign.name} brief`, 'xlsx')]: [workbook, stored],
    ...(qr ? { [QR_PNG]: [qr.png, stored], [QR_SVG]: strToU8(qr.svg) } : {}),
    [LINKS_CSV]: strToU8(linksCsv(pack)),
    ...Object.fromEntries(audience.map((file) => [file.name, file.bytes])),
  };
  return {
    name: briefFileName(`${pack.campaign.name} pack`, 'zip'),
    bytes: zipSync(files, { level: 6 }),
    entries: Object.keys(files),
  };
}

import { saveFile } from '@/components/ui/download-button';

import type { ExportableBrief } from './brief-values';
import { briefFileName } from './file-name';

/**
 * The brief's exports (issue 12): an Excel workbook and a Word document, downloaded by the
 * browser. The builders and their libraries (exceljs, docx) load on the first export, not with
 * the page.
 */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A Blob of the bytes (copied: a Blob takes only bytes on a plain, not shared, ArrayBuffer). */
export const blobOf = (bytes: Uint8Array, type: string) => new Blob([new Uint8Array(bytes)], { type });

/** The file's name: the brief's title, else its campaign name, made safe for file systems. */
const fileTitle = (brief: ExportableBrief) => brief.title.trim() || brief.data.campaignName;

/** Builds the brief's .xlsx and saves it as '<campaign name>.xlsx'. */
export async function downloadBriefExcel(brief: ExportableBrief): Promise<void> {
  const { buildBriefWorkbook } = await import('./brief-workbook');
  const bytes = await buildBriefWorkbook(brief);
  saveFile({ blob: blobOf(bytes, XLSX_TYPE), name: briefFileName(fileTitle(brief), 'xlsx') });
}

/** Builds the brief's .docx and saves it as '<campaign name>.docx'. */
export async function downloadBriefDocx(brief: ExportableBrief): Promise<void> {
  const { buildBriefDocx } = await import('./brief-docx');
  const bytes = await buildBriefDocx(brief);
  saveFile({ blob: blobOf(bytes, DOCX_TYPE), name: briefFileName(fileTitle(brief), 'docx') });
}

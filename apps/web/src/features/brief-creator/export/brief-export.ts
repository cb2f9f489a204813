import type { BriefData } from '@gem/contracts/brief-creator';

/**
 * The brief's exports (issue 12): an Excel workbook and a Word document, downloaded by the
 * browser. The libraries load on the first export, not with the page.
 */

export type ExportableBrief = {
  /** The finished brief's title, or the campaign name while the brief is being written. */
  title: string;
  data: BriefData;
  /** ISO date-time of a finished brief. */
  createdAt?: string | null;
  /** A finished brief's id. */
  id?: string | null;
};

export async function downloadBriefExcel(brief: ExportableBrief): Promise<void> {
  throw new Error(`Excel export is being written (${brief.title})`);
}

export async function downloadBriefDocx(brief: ExportableBrief): Promise<void> {
  throw new Error(`Word export is being written (${brief.title})`);
}

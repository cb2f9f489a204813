import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { catchDownloads, type SavedFile } from '@/testing/downloads';

import { downloadBriefDocx, downloadBriefExcel, DOCX_TYPE, XLSX_TYPE } from './brief-export';
import type { ExportableBrief } from './brief-values';
import { fullBrief } from './test-briefs';

describe('the brief downloads', () => {
  let saved: SavedFile[];

  beforeEach(() => {
    saved = catchDownloads();
  });

  afterEach(() => vi.restoreAllMocks());

  async function filesOf(blob: Blob) {
    return unzipSync(new Uint8Array(await blob.arrayBuffer()));
  }

  it('saves the workbook under the campaign name', async () => {
    await downloadBriefExcel(fullBrief);

    expect(saved).toHaveLength(1);
    const [file] = saved;
    expect(file?.name).toBe('Spring Launch 2026.xlsx');
    expect(file?.blob.type).toBe(XLSX_TYPE);
    expect(file?.inDocument).toBe(true);
    const files = await filesOf(file!.blob);
    expect(strFromU8(files['xl/sharedStrings.xml']!)).toContain('Spring Launch 2026');
    // The link is gone once clicked.
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
  });

  it('saves the Word document under the campaign name, or marketing-brief without one', async () => {
    const untitled: ExportableBrief = {
      ...fullBrief,
      title: ' ',
      data: { ...fullBrief.data, campaignName: '' },
    };
    await downloadBriefDocx(fullBrief);
    await downloadBriefDocx(untitled);

    expect(saved.map((file) => file.name)).toEqual(['Spring Launch 2026.docx', 'marketing-brief.docx']);
    expect(saved[0]?.blob.type).toBe(DOCX_TYPE);
    const files = await filesOf(saved[0]!.blob);
    expect(strFromU8(files['word/document.xml']!)).toContain('Spring Launch 2026');
  });

  it('uses the campaign name when the brief has no title yet', async () => {
    await downloadBriefExcel({ ...fullBrief, title: '' });
    expect(saved[0]?.name).toBe('Spring Launch 2026.xlsx');
  });
});

import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { downloadBriefDocx, downloadBriefExcel, DOCX_TYPE, XLSX_TYPE } from './brief-export';
import type { ExportableBrief } from './brief-values';
import { fullBrief } from './test-briefs';

type Saved = { blob: Blob; name: string; href: string; inDocument: boolean };

describe('the brief downloads', () => {
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
      const blob = blobs.get(this.href);
      if (!blob) throw new Error(`No blob behind ${this.href}`);
      saved.push({ blob, name: this.download, href: this.href, inDocument: document.body.contains(this) });
    });
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

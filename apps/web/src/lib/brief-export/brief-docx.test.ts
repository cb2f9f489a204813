import { briefFieldLabels, briefFields, emptyBriefData } from '@gem/contracts/brief-creator';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { formatDateTime } from '@/lib/format-date';

import { buildBriefDocx, NOT_SPECIFIED } from './brief-docx';
import { fullBrief, sparseBrief } from './test-briefs';

function partsOf(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  const part = (name: string) => {
    const file = files[name];
    if (!file) throw new Error(`No ${name} in the document`);
    return strFromU8(file);
  };
  return {
    document: part('word/document.xml'),
    styles: part('word/styles.xml'),
    core: part('docProps/core.xml'),
  };
}

/** The document's paragraphs as text, in order (runs joined, line breaks as \n). */
function paragraphsOf(documentXml: string): string[] {
  const xml = new DOMParser().parseFromString(documentXml, 'application/xml');
  expect(xml.getElementsByTagName('parsererror')).toHaveLength(0);
  return Array.from(xml.getElementsByTagName('w:p')).map((paragraph) =>
    Array.from(paragraph.getElementsByTagName('*'))
      .map((node) => (node.tagName === 'w:t' ? node.textContent : node.tagName === 'w:br' ? '\n' : ''))
      .join(''),
  );
}

describe('buildBriefDocx', () => {
  it('writes the title, a subtitle, and every field label followed by its value', async () => {
    const { document, core } = partsOf(await buildBriefDocx(fullBrief));
    const paragraphs = paragraphsOf(document);

    expect(paragraphs[0]).toBe('Spring Launch 2026');
    expect(paragraphs[1]).toBe(`Webinar, Email  ·  Created ${formatDateTime('2026-02-20T12:00:00Z')}`);
    const after = (label: string, count = 1) => {
      const at = paragraphs.indexOf(label);
      expect(at, label).toBeGreaterThan(1);
      return paragraphs.slice(at + 1, at + 1 + count);
    };
    for (const field of briefFields) expect(paragraphs).toContain(briefFieldLabels[field]);
    expect(after('Primary objective')).toEqual(['=HYPERLINK("http://x")']);
    expect(after('Event objective')).toEqual(['Fill the room with <CFOs> & their teams']);
    expect(after('Event date')).toEqual(['Mar 12, 2026']);
    expect(after('Target audience')).toEqual(['Finance leaders\nin mid-sized companies']);
    expect(after('Channels', 4)).toEqual(['LinkedIn', '=1+1', 'Newsletter', 'Activity KPIs']);
    expect(after('Additional notes')).toEqual(['Zażółć gęślą jaźń']);
    expect(after('Recommendations', 2)).toEqual(['Invite a client CFO as a speaker', '-Send two reminders']);
    expect(paragraphs).not.toContain(NOT_SPECIFIED);
    expect(core).toContain('<dc:title>Spring Launch 2026</dc:title>');
  });

  it('writes lists as bullet paragraphs', async () => {
    const { document } = partsOf(await buildBriefDocx(fullBrief));
    // campaignType 2 + channels 3 + activity KPIs 2 + business KPIs 1 + recommendations 2
    expect(document.match(/<w:numPr>/g)).toHaveLength(10);
  });

  it('says "Not specified" for each empty field and leaves the subtitle out when nothing is known', async () => {
    const { document } = partsOf(await buildBriefDocx(sparseBrief));
    const paragraphs = paragraphsOf(document);

    expect(paragraphs[0]).toBe('Quiet brief');
    expect(paragraphs[1]).toBe(briefFieldLabels.campaignName);
    expect(paragraphs.filter((text) => text === NOT_SPECIFIED)).toHaveLength(briefFields.length - 1);
  });

  it('colours the headings in the brand orange and sets the font', async () => {
    const { styles } = partsOf(await buildBriefDocx(fullBrief));
    const heading = /<w:style [^>]*w:styleId="Heading1"[\s\S]*?<\/w:style>/.exec(styles)?.[0] ?? '';
    expect(heading).toContain('w:val="FD5108"');
    expect(styles).toContain('w:ascii="Arial"');
  });

  it('drops characters XML cannot carry, so the document still opens', async () => {
    const { document } = partsOf(
      await buildBriefDocx({
        title: '',
        data: { ...emptyBriefData(), campaignName: 'Bell\u0007 brief', keyMessages: 'a\u0001b' },
      }),
    );
    const paragraphs = paragraphsOf(document);
    expect(paragraphs[0]).toBe('Bell brief');
    expect(paragraphs).toContain('ab');
  });
});

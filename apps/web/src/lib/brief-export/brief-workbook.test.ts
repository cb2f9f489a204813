import { briefFieldLabels, briefFields, emptyBriefData } from '@gem/contracts/brief-creator';
import ExcelJS from 'exceljs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { buildBriefWorkbook, EVENT_DATE_FORMAT, SHEET_NAME } from './brief-workbook';
import { fullBrief, sparseBrief } from './test-briefs';

async function readBack(bytes: Uint8Array) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet(SHEET_NAME);
  if (!sheet) throw new Error('No brief sheet');
  return { workbook, sheet };
}

const columnOf = (field: (typeof briefFields)[number]) => briefFields.indexOf(field) + 1;

/** The cell formats of styles.xml, in order, and each cell's format index in the sheet. */
function rawParts(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  const sheetXml = strFromU8(files['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
  const stylesXml = strFromU8(files['xl/styles.xml'] ?? new Uint8Array());
  const cellXfs = /<cellXfs count="\d+">([\s\S]*?)<\/cellXfs>/.exec(stylesXml)?.[1] ?? '';
  const formats = cellXfs.match(/<xf\b[^>]*\/>|<xf\b[^>]*>[\s\S]*?<\/xf>/g) ?? [];
  const styleOf = (address: string) =>
    Number(new RegExp(`<c r="${address}"[^>]*? s="(\\d+)"`).exec(sheetXml)?.[1] ?? 0);
  return { sheetXml, formats, styleOf };
}

describe('buildBriefWorkbook', () => {
  it('writes a header row of the field labels and one row of values, in the spec order', async () => {
    const { sheet } = await readBack(await buildBriefWorkbook(fullBrief));

    expect(sheet.rowCount).toBe(2);
    expect(sheet.columnCount).toBe(briefFields.length);
    expect(briefFields.map((field) => sheet.getRow(1).getCell(columnOf(field)).value)).toEqual(
      briefFields.map((field) => briefFieldLabels[field]),
    );
    const value = (field: (typeof briefFields)[number]) => sheet.getRow(2).getCell(columnOf(field)).value;
    expect(value('campaignName')).toBe('Spring Launch 2026');
    expect(value('campaignType')).toBe('Webinar\nEmail');
    expect(value('eventObjective')).toBe('Fill the room with <CFOs> & their teams');
    expect(value('targetAudience')).toBe('Finance leaders\nin mid-sized companies');
    // Blank list items are left out; each item has its own line.
    expect(value('channels')).toBe('LinkedIn\n=1+1\nNewsletter');
    expect(value('creativeAssets')).toBe('Banner 1200×628, teaser video 🎬');
    expect(value('additionalNotes')).toBe('Zażółć gęślą jaźń');
    // The recommendations taken into the brief, last (issue 27).
    expect(value('recommendations')).toBe('Invite a client CFO as a speaker\n-Send two reminders');
    expect(sheet.getRow(1).getCell(briefFields.length).value).toBe('Recommendations');
  });

  it('writes the event date as a date cell with a date format', async () => {
    const { sheet } = await readBack(await buildBriefWorkbook(fullBrief));
    const cell = sheet.getRow(2).getCell(columnOf('eventDate'));

    expect(cell.type).toBe(ExcelJS.ValueType.Date);
    expect(cell.value).toEqual(new Date(Date.UTC(2026, 2, 12)));
    expect(cell.numFmt).toBe(EVENT_DATE_FORMAT);
    // The stored serial is the whole day, whatever the time zone: 12 Mar 2026 is day 46093.
    const { sheetXml } = rawParts(await buildBriefWorkbook(fullBrief));
    const address = cell.address;
    expect(new RegExp(`<c r="${address}"[^>]*><v>46093</v></c>`).test(sheetXml)).toBe(true);
  });

  it('keeps formula-looking values as text, exactly as written, with the quote prefix', async () => {
    const bytes = await buildBriefWorkbook(fullBrief);
    const { sheet } = await readBack(bytes);
    const formulaLike = {
      primaryObjective: '=HYPERLINK("http://x")',
      budget: '+48 123',
      timeline: '-5%',
      keyMessages: '@admin',
      activityKPIs: '500 registrations\n+20% open rate',
    } as const;

    for (const [field, text] of Object.entries(formulaLike)) {
      const cell = sheet.getRow(2).getCell(columnOf(field as keyof typeof formulaLike));
      expect(cell.type, field).toBe(ExcelJS.ValueType.String);
      expect(cell.value, field).toBe(text);
      expect(cell.formula, field).toBeUndefined();
    }
    sheet.eachRow((row) =>
      row.eachCell((cell) => expect(cell.type, cell.address).not.toBe(ExcelJS.ValueType.Formula)),
    );

    const { sheetXml, formats, styleOf } = rawParts(bytes);
    expect(sheetXml).not.toContain('<f>');
    expect(sheetXml).not.toContain('<f ');
    const quoted = (field: (typeof briefFields)[number]) =>
      formats[styleOf(sheet.getRow(2).getCell(columnOf(field)).address)]?.includes('quotePrefix="1"');
    for (const field of ['primaryObjective', 'budget', 'timeline', 'keyMessages'] as const) {
      expect(quoted(field), field).toBe(true);
    }
    // Only the cells that begin like a formula: the others (and the header) keep their format.
    for (const field of ['campaignName', 'activityKPIs', 'channels', 'eventDate'] as const) {
      expect(quoted(field), field).toBe(false);
    }
    expect(formats[styleOf('A1')]).not.toContain('quotePrefix');
  });

  it('quotes a full-width equals sign too, and a quoted cell keeps its alignment', async () => {
    const bytes = await buildBriefWorkbook({
      ...fullBrief,
      data: { ...fullBrief.data, campaignName: '＝SUM(A1)', budget: '1000 PLN' },
    });
    const { sheet } = await readBack(bytes);
    const name = sheet.getRow(2).getCell(columnOf('campaignName'));
    expect(name.value).toBe('＝SUM(A1)');
    expect(name.alignment).toMatchObject({ vertical: 'top', wrapText: true });
    const { formats, styleOf } = rawParts(bytes);
    expect(formats[styleOf(name.address)]).toContain('quotePrefix="1"');
    expect(formats[styleOf(sheet.getRow(2).getCell(columnOf('budget')).address)]).not.toContain(
      'quotePrefix',
    );
  });

  it('styles the header in the brand colour, freezes it and gives the columns readable widths', async () => {
    const { sheet } = await readBack(await buildBriefWorkbook(fullBrief));
    const header = sheet.getRow(1).getCell(1);

    expect(header.font).toMatchObject({ bold: true, color: { argb: 'FFFFFFFF' } });
    expect(header.fill).toMatchObject({ type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFD5108' } });
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    for (const [index, field] of briefFields.entries()) {
      const width = sheet.getColumn(index + 1).width ?? 0;
      expect(width, field).toBeGreaterThanOrEqual(Math.max(12, briefFieldLabels[field].length));
      expect(width, field).toBeLessThanOrEqual(50);
    }
    expect(sheet.getRow(2).getCell(columnOf('channels')).alignment).toMatchObject({ wrapText: true });
    // Three lines of channels: the value row is at least three lines tall.
    expect(sheet.getRow(2).height).toBeGreaterThanOrEqual(45);
  });

  it('leaves empty fields as empty cells and still writes every label', async () => {
    const { sheet } = await readBack(await buildBriefWorkbook(sparseBrief));

    expect(sheet.getRow(1).getCell(briefFields.length).value).toBe(briefFieldLabels.recommendations);
    expect(sheet.getRow(2).getCell(1).value).toBe('Quiet brief');
    for (const field of briefFields.slice(1)) {
      expect(sheet.getRow(2).getCell(columnOf(field)).value, field).toBeNull();
    }
  });

  it('drops characters an .xlsx cannot hold and keeps an impossible date as text', async () => {
    const { workbook, sheet } = await readBack(
      await buildBriefWorkbook({
        title: 'Bell\u0007 brief',
        data: { ...emptyBriefData(), campaignName: 'Bell\u0007 brief', eventDate: '2026-02-30' },
      }),
    );
    expect(sheet.getRow(2).getCell(1).value).toBe('Bell brief');
    expect(sheet.getRow(2).getCell(columnOf('eventDate')).value).toBe('2026-02-30');
    expect(workbook.title).toBe('Bell brief');
  });
});

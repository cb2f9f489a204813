import { briefFieldLabels, briefFields } from '@gem/contracts/brief-creator';
import type * as ExcelJsModule from 'exceljs';
import type { Cell, Workbook } from 'exceljs';

import { exportTitle, exportValue, looksLikeFormula, type ExportableBrief } from './brief-values';
import { withQuotePrefix } from './quote-prefix';

/** GEM's brand orange, as exceljs writes colours (alpha first). */
const BRAND_ARGB = 'FFFD5108';
const WHITE_ARGB = 'FFFFFFFF';
/** How the event date shows: GEM's date pattern (spec §9) without the time, e.g. 'Mar 12, 2026'. */
export const EVENT_DATE_FORMAT = 'mmm d, yyyy';
/** The one worksheet, and where exceljs writes it in the package. */
export const SHEET_NAME = 'Brief';
const SHEET_PATH = 'xl/worksheets/sheet1.xml';

/** Column widths, in characters of the default font. */
const MIN_WIDTH = 12;
const MAX_WIDTH = 50;
/** Excel's default row height (Calibri 11) and its tallest row, in points. */
const LINE_HEIGHT = 15;
const MAX_ROW_HEIGHT = 409;

type ExcelJs = typeof ExcelJsModule;

/**
 * exceljs, loaded on the first export. Vite takes its browser bundle (package.json "browser":
 * dist/exceljs.min.js, with its own Buffer and stream polyfills); Node (the tests) takes the
 * CommonJS build. Both arrive as a CommonJS module's default export.
 */
async function loadExcelJs(): Promise<ExcelJs> {
  const module = (await import('exceljs')) as ExcelJs & { default?: ExcelJs };
  return module.default ?? module;
}

/** The cell's text lines as the spreadsheet shows them. */
const linesOf = (value: Cell['value']): string[] => (typeof value === 'string' ? value.split('\n') : []);

/**
 * The brief as an .xlsx workbook (spec: 'header row of field labels plus one row'): one sheet,
 * the field labels in a bold white-on-orange header row that stays in view, and the values in
 * the row below, in the spec's field order. A list has one item per line of its cell; the event
 * date is a real date cell; an empty field is an empty cell. No cell is a formula: every value is
 * a text cell, and those that begin like one (=, +, -, @ …) carry Excel's quotePrefix as well,
 * so they stay text even when edited.
 */
export async function buildBriefWorkbook(brief: ExportableBrief): Promise<Uint8Array> {
  const { Workbook: WorkbookClass } = await loadExcelJs();
  const workbook: Workbook = new WorkbookClass();
  const title = exportTitle(brief);
  workbook.creator = 'GEM';
  workbook.title = title;
  const created = brief.createdAt ? new Date(brief.createdAt) : null;
  if (created && !Number.isNaN(created.getTime())) workbook.created = created;

  const sheet = workbook.addWorksheet(SHEET_NAME, {
    views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }],
  });

  const header = sheet.getRow(1);
  const values = sheet.getRow(2);
  briefFields.forEach((field, index) => {
    const column = index + 1;
    const label = header.getCell(column);
    label.value = briefFieldLabels[field];
    label.font = { bold: true, color: { argb: WHITE_ARGB } };
    label.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: BRAND_ARGB } };
    label.alignment = { vertical: 'middle', wrapText: true };

    const cell = values.getCell(column);
    const value = exportValue(brief.data, field);
    if (value.kind === 'date') {
      cell.value = value.date;
      cell.numFmt = EVENT_DATE_FORMAT;
    } else if (value.kind === 'list') {
      cell.value = value.items.join('\n');
    } else if (value.kind === 'text') {
      cell.value = value.text;
    }
    cell.alignment = { vertical: 'top', horizontal: 'left', wrapText: true };
  });

  // Each column as wide as its longest line (the date needs room for 'Sep 30, 2026'), within
  // limits; longer text wraps, and the value row is made tall enough for its longest cell.
  let valueLines = 1;
  briefFields.forEach((field, index) => {
    const column = sheet.getColumn(index + 1);
    const cell = values.getCell(index + 1);
    const lines = linesOf(cell.value);
    const longest = Math.max(
      briefFieldLabels[field].length + 3,
      cell.value instanceof Date ? 14 : 0,
      ...lines.map((line) => line.length + 2),
    );
    const width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, longest));
    column.width = width;
    const wrapped = lines.reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / (width - 2))), 0);
    valueLines = Math.max(valueLines, wrapped);
  });
  header.height = LINE_HEIGHT + 5;
  values.height = Math.min(MAX_ROW_HEIGHT, valueLines * LINE_HEIGHT + 3);

  const formulaLike: string[] = [];
  sheet.eachRow((row) => {
    row.eachCell((cell) => {
      if (typeof cell.value === 'string' && looksLikeFormula(cell.value)) {
        formulaLike.push(cell.address);
      }
    });
  });

  const written = await workbook.xlsx.writeBuffer();
  const bytes = new Uint8Array(written);
  return withQuotePrefix(bytes, SHEET_PATH, formulaLike);
}

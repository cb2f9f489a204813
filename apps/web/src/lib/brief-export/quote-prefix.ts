import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

/**
 * Marks cells of a written .xlsx with Excel's quotePrefix ("'" prefix) style, which exceljs
 * cannot set: the value stays exactly as written and shows without an apostrophe, and Excel
 * keeps it text even when someone edits the cell and presses Enter (without the flag, Excel
 * would read '=HYPERLINK(…)' typed back in as a formula). Each styled cell gets a copy of its
 * own cell format with quotePrefix="1", so its font, fill and alignment stay as they were.
 *
 * Works on exceljs's output (one `<c r="B2" s="3" …>` per cell, one `<cellXfs>` list); throws
 * when a cell or the list is not there, so a change in exceljs shows up in the tests.
 */
export function withQuotePrefix(
  xlsx: Uint8Array,
  sheetPath: string,
  cellAddresses: readonly string[],
): Uint8Array {
  if (cellAddresses.length === 0) return xlsx;
  const files = unzipSync(xlsx);
  const sheetXml = files[sheetPath];
  const stylesXml = files['xl/styles.xml'];
  if (!sheetXml || !stylesXml) throw new Error(`The workbook has no ${sheetPath} or styles.`);

  let styles = strFromU8(stylesXml);
  const list = /<cellXfs count="(\d+)">([\s\S]*?)<\/cellXfs>/.exec(styles);
  if (!list) throw new Error('The workbook has no cell formats (cellXfs).');
  const formats = list[2]?.match(/<xf\b[^>]*\/>|<xf\b[^>]*>[\s\S]*?<\/xf>/g) ?? [];
  if (formats.length !== Number(list[1])) throw new Error('The cell formats could not be read.');

  // The copy of each cell format used, by its index: one copy per format, however many cells.
  const quoted = new Map<number, number>();
  const added: string[] = [];
  let sheet = strFromU8(sheetXml);
  for (const address of cellAddresses) {
    const cell = new RegExp(`<c r="${address}"([^>]*?)(/?)>`).exec(sheet);
    if (!cell) throw new Error(`Cell ${address} is not in ${sheetPath}.`);
    const attributes = cell[1] ?? '';
    const style = Number(/ s="(\d+)"/.exec(attributes)?.[1] ?? 0);
    let copy = quoted.get(style);
    if (copy === undefined) {
      const format = formats[style];
      if (!format) throw new Error(`Cell ${address} has no cell format ${style}.`);
      copy = formats.length + added.length;
      added.push(format.replace(/^<xf\b/, '<xf quotePrefix="1"'));
      quoted.set(style, copy);
    }
    const restyled = / s="\d+"/.test(attributes)
      ? attributes.replace(/ s="\d+"/, ` s="${copy}"`)
      : `${attributes} s="${copy}"`;
    sheet = sheet.replace(cell[0], () => `<c r="${address}"${restyled}${cell[2] ?? ''}>`);
  }
  styles = styles.replace(
    list[0],
    () => `<cellXfs count="${formats.length + added.length}">${list[2] ?? ''}${added.join('')}</cellXfs>`,
  );

  files[sheetPath] = strToU8(sheet);
  files['xl/styles.xml'] = strToU8(styles);
  return zipSync(files, { level: 6 });
}

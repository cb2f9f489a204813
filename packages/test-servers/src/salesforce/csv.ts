/**
 * CSV as the Bulk API 2.0 reads and writes it: RFC 4180 (a field in double quotes may hold the
 * delimiter, a line break, or a quote written twice), LF or CRLF line endings, a header row of
 * field names.
 */

/** The rows of a CSV text, each a list of fields; a last empty line is no row. */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i += 1;
      } else {
        field += c;
        i += 1;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      i += 1;
    } else if (c === delimiter) {
      row.push(field);
      field = '';
      i += 1;
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += c === '\r' ? 2 : 1;
    } else {
      field += c;
      i += 1;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** One CSV line, every field quoted (as Salesforce writes its result files). */
export const csvLine = (fields: readonly string[]) =>
  fields.map((f) => `"${f.replaceAll('"', '""')}"`).join(',');

/** Salesforce's REST errors, and where in a query one is, as its messages say. */

/** A REST error, answered as `[{ message, errorCode }]`. */
export class SalesforceApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** Where a position is, in Salesforce's error message form. */
export function located(soql: string, pos: number, message: string): string {
  const before = soql.slice(0, pos);
  const row = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  const line = soql.split('\n')[row - 1] ?? '';
  return `\n${line}\n${' '.repeat(column - 1)}^\nERROR at Row:${row}:Column:${column}\n${message}`;
}

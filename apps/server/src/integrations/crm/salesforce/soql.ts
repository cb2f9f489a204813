/**
 * Values written into SOQL. SOQL has no bind parameters over REST, so every value GEM writes
 * into a query goes through one of these: a string becomes one quoted literal with SOQL's
 * backslash escapes (a quote or a backslash in it can never end the literal), an id must look
 * like an id, and field paths come only from the checked mapping file (config/crm.ts).
 */

const escapes: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** A quoted SOQL string literal holding exactly `value`. */
export function soqlString(value: string): string {
  return `'${Array.from(value, (c) => escapes[c] ?? c).join('')}'`;
}

/** A quoted LIKE pattern matching `value` anywhere: `%` and `_` in it stand for themselves. */
export function soqlContains(value: string): string {
  const literal = soqlString(value).slice(1, -1);
  return `'%${literal.replace(/[%_]/g, (c) => `\\${c}`)}%'`;
}

const ID = /^[a-z0-9]{15}(?:[a-z0-9]{3})?$/i;

export const isSalesforceId = (value: string) => ID.test(value);

/** A quoted id literal; throws on anything that is not a 15- or 18-character id. */
export function soqlId(value: string): string {
  if (!ID.test(value)) throw new Error('not a Salesforce id');
  return `'${value}'`;
}

/** `(literal, literal…)` for IN. */
export const soqlList = (values: readonly string[]) => `(${values.map(soqlString).join(', ')})`;

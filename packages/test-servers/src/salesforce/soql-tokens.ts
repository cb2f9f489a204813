import { located, SalesforceApiError } from './errors';
import { isoDate, isoDateTime } from './field-types';

/**
 * SOQL's tokens: words (dotted field paths included), quoted strings with SOQL's backslash escapes
 * (an illegal escape is MALFORMED_QUERY, as Salesforce answers it), numbers, dates and
 * datetimes, and the comparison symbols.
 */

export type Token =
  | { kind: 'word'; text: string; pos: number }
  | { kind: 'string'; text: string; value: string; raw: string; pos: number }
  | { kind: 'number'; text: string; value: number; pos: number }
  | { kind: 'date' | 'datetime'; text: string; pos: number }
  | { kind: 'symbol'; text: string; pos: number }
  | { kind: 'eof'; text: '<EOF>'; pos: number };

const escapes: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  '"': '"',
  "'": "'",
  '\\': '\\',
  _: '_',
  '%': '%',
};

const isWordStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isDigit = (c: string) => c >= '0' && c <= '9';
const isWordChar = (c: string) => isWordStart(c) || isDigit(c);

const plainNumber = /^-?\d+(?:\.\d+)?$/;

export function tokenize(soql: string): Token[] {
  const tokens: Token[] = [];
  const malformed = (pos: number, message: string) =>
    new SalesforceApiError(400, 'MALFORMED_QUERY', located(soql, pos, message));
  let i = 0;
  while (i < soql.length) {
    const c = soql[i]!;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
      i += 1;
    } else if (c === "'") {
      const start = i;
      let value = '';
      // The LIKE pattern: `\` before a character that stands for itself (`\%`, `\_`, `\\`).
      let pattern = '';
      i += 1;
      for (;;) {
        if (i >= soql.length) throw malformed(start, "mismatched character '<EOF>' expecting '''");
        const d = soql[i]!;
        if (d === "'") break;
        if (d === '\\') {
          const next = soql[i + 1] ?? '';
          const escaped = escapes[next];
          if (escaped === undefined) {
            throw malformed(
              i,
              `Invalid string literal '${soql.slice(start, i + 2)}'. Illegal escape sequence`,
            );
          }
          value += escaped;
          pattern += next === '_' || next === '%' || next === '\\' ? `\\${next}` : escaped;
          i += 2;
        } else {
          value += d;
          pattern += d;
          i += 1;
        }
      }
      i += 1;
      tokens.push({ kind: 'string', text: soql.slice(start, i), value, raw: pattern, pos: start });
    } else if (isWordStart(c)) {
      const start = i;
      while (
        i < soql.length &&
        (isWordChar(soql[i]!) || (soql[i] === '.' && isWordStart(soql[i + 1] ?? '')))
      ) {
        i += 1;
      }
      tokens.push({ kind: 'word', text: soql.slice(start, i), pos: start });
    } else if (isDigit(c) || (c === '-' && isDigit(soql[i + 1] ?? ''))) {
      const start = i;
      i += 1;
      while (i < soql.length && (isWordChar(soql[i]!) || ':.+-'.includes(soql[i]!))) i += 1;
      const text = soql.slice(start, i);
      if (plainNumber.test(text)) tokens.push({ kind: 'number', text, value: Number(text), pos: start });
      else if (isoDate.test(text)) tokens.push({ kind: 'date', text, pos: start });
      else if (isoDateTime.test(text)) tokens.push({ kind: 'datetime', text, pos: start });
      else throw malformed(start, `unexpected token: ${text}`);
    } else {
      const two = soql.slice(i, i + 2);
      if (two === '!=' || two === '<>' || two === '<=' || two === '>=') {
        tokens.push({ kind: 'symbol', text: two === '<>' ? '!=' : two, pos: i });
        i += 2;
      } else if ('=<>,():'.includes(c)) {
        tokens.push({ kind: 'symbol', text: c, pos: i });
        i += 1;
      } else {
        throw malformed(i, `unexpected token: ${c}`);
      }
    }
  }
  tokens.push({ kind: 'eof', text: '<EOF>', pos: soql.length });
  return tokens;
}

import { located, SalesforceApiError } from './errors';
import { tokenize, type Token } from './soql-tokens';

/**
 * SOQL's syntax, as far as the test server serves it: a query to a tree of conditions, with
 * every token's position for Salesforce's `ERROR at Row:…:Column:…` messages.
 *
 * Why not `@jetstreamapp/soql-parser-js` (weighed for issue 28): its WHERE is a flat chain with
 * parenthesis counts (`a = 1 AND b = 2 OR c = 3` comes back as `a AND (b OR c)`), so the
 * evaluator would have to rebuild precedence from the counts; it keeps no positions; its string
 * values keep their quotes and escapes, and it accepts escapes Salesforce refuses (`'\q'`).
 * Wrapping it would need about as much code as this parser, plus chevrotain.
 */

export type Literal =
  | { kind: 'string'; value: string; raw: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'date' | 'datetime'; value: string };

export type Path = { text: string; pos: number };

export type Condition =
  | { kind: 'and' | 'or'; parts: Condition[] }
  | { kind: 'not'; part: Condition }
  | { kind: 'compare'; path: Path; op: string; literal: Literal; pos: number }
  | { kind: 'in'; path: Path; negated: boolean; literals: Literal[]; pos: number }
  | { kind: 'like'; path: Path; pattern: string; pos: number };

export type SoqlQuery = {
  object: string;
  objectPos: number;
  /** Selected field paths, or `count` for `SELECT COUNT()`. */
  fields: Path[] | 'count';
  where?: Condition;
  orderBy: { path: Path; descending: boolean; nullsLast: boolean }[];
  limit?: number;
  offset?: number;
  /** The string literals, unescaped, in order. */
  literals: string[];
};

const keywords = new Set(
  'SELECT FROM WHERE AND OR NOT IN LIKE ORDER BY ASC DESC NULLS FIRST LAST LIMIT OFFSET WITH GROUP HAVING TRUE FALSE NULL INCLUDES EXCLUDES TYPEOF FOR USING'.split(
    ' ',
  ),
);

/**
 * Parses the SOQL subset served: `SELECT <field paths, e.g. Contact.Account.Industry> | COUNT()
 * FROM <object> [WHERE <conditions>] [WITH SECURITY_ENFORCED | USER_MODE | SYSTEM_MODE]
 * [ORDER BY <path> [ASC|DESC] [NULLS FIRST|LAST], …] [LIMIT n] [OFFSET n]`. Conditions: `path
 * <op> literal` (=, !=, <>, <, <=, >, >=), `path [NOT] IN (literals)`, `path LIKE 'pattern'`,
 * joined by AND / OR, with NOT and parentheses. Literals: quoted strings (with SOQL's backslash
 * escapes), numbers, TRUE, FALSE, NULL, dates and datetimes. Anything else (subqueries, aggregate
 * functions, GROUP BY, date literals such as TODAY, aliases) is answered as MALFORMED_QUERY.
 */
export function parseSoql(soql: string): SoqlQuery {
  const tokens = tokenize(soql);
  let at = 0;
  const peek = () => tokens[at]!;
  const next = () => tokens[at++]!;
  const isKeyword = (t: Token, word: string) => t.kind === 'word' && t.text.toUpperCase() === word;
  const unexpected = (t: Token, note = '') =>
    new SalesforceApiError(
      400,
      'MALFORMED_QUERY',
      located(soql, t.pos, `unexpected token: ${t.text}${note ? ` (${note})` : ''}`),
    );
  const expectKeyword = (word: string) => {
    const t = next();
    if (!isKeyword(t, word)) throw unexpected(t);
  };
  const expectSymbol = (symbol: string) => {
    const t = next();
    if (t.kind !== 'symbol' || t.text !== symbol) throw unexpected(t);
  };
  const path = (): Path => {
    const t = next();
    if (t.kind !== 'word' || keywords.has(t.text.toUpperCase())) throw unexpected(t);
    return { text: t.text, pos: t.pos };
  };
  const literals: string[] = [];
  const literal = (): Literal => {
    const t = next();
    if (t.kind === 'string') {
      literals.push(t.value);
      return { kind: 'string', value: t.value, raw: t.raw };
    }
    if (t.kind === 'number') return { kind: 'number', value: t.value };
    if (t.kind === 'date' || t.kind === 'datetime') return { kind: t.kind, value: t.text };
    if (isKeyword(t, 'TRUE')) return { kind: 'boolean', value: true };
    if (isKeyword(t, 'FALSE')) return { kind: 'boolean', value: false };
    if (isKeyword(t, 'NULL')) return { kind: 'null' };
    throw unexpected(t, t.kind === 'word' ? 'date literals are outside the test server’s SOQL subset' : '');
  };
  const integer = () => {
    const t = next();
    if (t.kind !== 'number' || !Number.isInteger(t.value) || t.value < 0) throw unexpected(t);
    return t.value;
  };

  expectKeyword('SELECT');
  let fields: Path[] | 'count';
  const first = peek();
  if (isKeyword(first, 'COUNT') && tokens[at + 1]?.text === '(') {
    at += 2;
    expectSymbol(')');
    fields = 'count';
  } else {
    fields = [];
    for (;;) {
      const t = peek();
      if (t.kind === 'symbol' && t.text === '(')
        throw unexpected(t, 'subqueries are outside the test server’s SOQL subset');
      const p = path();
      if (peek().text === '(')
        throw unexpected(peek(), 'functions are outside the test server’s SOQL subset');
      if (!fields.some((f) => f.text.toLowerCase() === p.text.toLowerCase())) fields.push(p);
      if (peek().text !== ',') break;
      next();
    }
  }
  expectKeyword('FROM');
  const objectToken = next();
  if (
    objectToken.kind !== 'word' ||
    objectToken.text.includes('.') ||
    keywords.has(objectToken.text.toUpperCase())
  ) {
    throw unexpected(objectToken);
  }

  const condition = (): Condition => {
    const parts = [conjunction()];
    while (isKeyword(peek(), 'OR')) {
      next();
      parts.push(conjunction());
    }
    return parts.length === 1 ? parts[0]! : { kind: 'or', parts };
  };
  const conjunction = (): Condition => {
    const parts = [unary()];
    while (isKeyword(peek(), 'AND')) {
      next();
      parts.push(unary());
    }
    return parts.length === 1 ? parts[0]! : { kind: 'and', parts };
  };
  const unary = (): Condition => {
    const t = peek();
    if (isKeyword(t, 'NOT')) {
      next();
      return { kind: 'not', part: unary() };
    }
    if (t.kind === 'symbol' && t.text === '(') {
      next();
      const inner = condition();
      expectSymbol(')');
      return inner;
    }
    const p = path();
    const op = next();
    if (isKeyword(op, 'LIKE')) {
      const pattern = next();
      if (pattern.kind !== 'string') throw unexpected(pattern);
      literals.push(pattern.value);
      return { kind: 'like', path: p, pattern: pattern.raw, pos: op.pos };
    }
    const negated = isKeyword(op, 'NOT');
    if (negated || isKeyword(op, 'IN')) {
      if (negated) expectKeyword('IN');
      expectSymbol('(');
      const values = [literal()];
      while (peek().text === ',') {
        next();
        values.push(literal());
      }
      expectSymbol(')');
      return { kind: 'in', path: p, negated, literals: values, pos: op.pos };
    }
    if (op.kind !== 'symbol' || !['=', '!=', '<', '<=', '>', '>='].includes(op.text)) throw unexpected(op);
    return { kind: 'compare', path: p, op: op.text, literal: literal(), pos: op.pos };
  };

  const query: SoqlQuery = {
    object: objectToken.text,
    objectPos: objectToken.pos,
    fields,
    orderBy: [],
    literals,
  };
  if (isKeyword(peek(), 'WHERE')) {
    next();
    query.where = condition();
  }
  if (isKeyword(peek(), 'WITH')) {
    next();
    const mode = next();
    if (!['SECURITY_ENFORCED', 'USER_MODE', 'SYSTEM_MODE'].includes(mode.text.toUpperCase()))
      throw unexpected(mode);
  }
  if (isKeyword(peek(), 'ORDER')) {
    next();
    expectKeyword('BY');
    for (;;) {
      const p = path();
      let descending = false;
      if (isKeyword(peek(), 'ASC')) next();
      else if (isKeyword(peek(), 'DESC')) {
        next();
        descending = true;
      }
      let nullsLast = descending;
      if (isKeyword(peek(), 'NULLS')) {
        next();
        const which = next();
        if (isKeyword(which, 'FIRST')) nullsLast = false;
        else if (isKeyword(which, 'LAST')) nullsLast = true;
        else throw unexpected(which);
      }
      query.orderBy.push({ path: p, descending, nullsLast });
      if (peek().text !== ',') break;
      next();
    }
  }
  if (isKeyword(peek(), 'LIMIT')) {
    next();
    query.limit = integer();
  }
  if (isKeyword(peek(), 'OFFSET')) {
    next();
    query.offset = integer();
  }
  const rest = peek();
  if (rest.kind !== 'eof') throw unexpected(rest);
  return query;
}

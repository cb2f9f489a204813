import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify, type CryptoKey, type KeyObject } from 'jose';

/**
 * A local Salesforce org that speaks the REST subset GEM's CRM adapter uses (as jsforce calls
 * it), so the real adapter is what tests exercise:
 *
 * - `POST /services/oauth2/token`: the client-credentials grant (client id and secret in the
 *   form body, as jsforce sends them, or in HTTP Basic auth), and the JWT bearer grant when a
 *   public key is configured. Answers Salesforce's token response; failures are Salesforce's
 *   `{ error, error_description }` with a 400.
 * - `GET /services/data/vXX.X/query?q=<SOQL>` (and `queryAll`): a strict SOQL subset over an
 *   in-memory org (see `parseSoql`), pages of 2,000 records (or the `Sforce-Query-Options:
 *   batchSize=n` header's), and `GET /services/data/vXX.X/query/<locator>-<offset>` for the
 *   next page, as `nextRecordsUrl` names it.
 * - `GET /services/data/vXX.X/sobjects` and `/sobjects/<Object>/describe`.
 * - Errors in Salesforce's REST shape, `[{ message, errorCode }]`: `INVALID_SESSION_ID` (401) for
 *   a missing, expired or revoked token, `MALFORMED_QUERY`, `INVALID_FIELD`, `INVALID_TYPE`,
 *   `INVALID_QUERY_FILTER_OPERATOR` (a literal of the wrong type, an Id that is not one),
 *   `INVALID_QUERY_LOCATOR`, `NOT_FOUND`; faults on demand (a hang, a 503, a 500
 *   `UNKNOWN_EXCEPTION`, any status and error code, an HTML error page).
 *
 * The instance URL the token response names is the server's own URL (a My Domain URL serves
 * both the token endpoint and the REST API). Every request is recorded, with the SOQL and the
 * string literals it parsed to, so a test can check that a value reached Salesforce as one
 * literal.
 */

/** A record as a test hands it in: field API names to JSON values; `Id` is required. */
export type SalesforceRecord = { Id: string; [field: string]: unknown };

/** Records by sObject name: `Campaign`, `CampaignMember`, `Contact`, `Lead`, `Account`. */
export type SalesforceData = Partial<Record<string, SalesforceRecord[]>>;

export type SalesforceFieldType =
  | 'id'
  | 'reference'
  | 'string'
  | 'textarea'
  | 'picklist'
  | 'email'
  | 'url'
  | 'phone'
  | 'boolean'
  | 'int'
  | 'double'
  | 'currency'
  | 'percent'
  | 'date'
  | 'datetime';

/** A field as describe names it; `referenceTo` and `relationshipName` for a lookup. */
export type SalesforceField = {
  name: string;
  type: SalesforceFieldType;
  label?: string;
  referenceTo?: string[];
  relationshipName?: string;
};

export type SalesforceFault = {
  /** Which requests it hits: the REST API (default) or the token endpoint. */
  on?: 'api' | 'token';
} & (
  | /** Accepts the request and never answers (until the client gives up or the server closes). */
    { kind: 'hang' }
    /**
     * An error in Salesforce's REST shape. Defaults: 503 `SERVER_UNAVAILABLE`, 500
     * `UNKNOWN_EXCEPTION` with an ErrorId message, 403 `REQUEST_LIMIT_EXCEEDED`.
     */
  | { kind: 'error'; status: number; errorCode?: string; message?: string }
  /** An HTML page with this status, as a proxy or a down instance serves it. */
  | { kind: 'html'; status: number }
);

export type RecordedSalesforceRequest = {
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  /** The token request's form parameters (the client secret included). */
  form?: Record<string, string>;
  /** The `q` parameter of a query. */
  soql?: string;
  /** The string literals the SOQL parsed to, unescaped, in order: what the values became. */
  literals?: string[];
  /** The status answered; undefined while hanging. */
  status?: number;
  /** The errorCode (REST) or error (OAuth) answered, if any. */
  errorCode?: string;
};

export type SalesforceServerOptions = {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** The org's records. */
  data?: SalesforceData;
  /** Extra or overriding field definitions by object (lookups of custom fields, say). */
  fields?: Record<string, SalesforceField[]>;
  /** Records per query page; Salesforce's default is 2,000. */
  pageSize?: number;
  /**
   * Enables the JWT bearer grant: assertions signed with the matching private key (RS256), `iss`
   * the client id, a `sub`, an `aud` of login.salesforce.com, test.salesforce.com or this
   * server's URL, and an `exp` in the future.
   */
  jwtPublicKey?: CryptoKey | KeyObject;
  /** The `scope` of issued tokens. */
  scope?: string;
};

export type SalesforceServer = {
  /** http://127.0.0.1:<port>: the My Domain URL (token endpoint) and the instance URL. */
  url: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The org id (00D…) and integration user id (005…) the identity URL names. */
  orgId: string;
  userId: string;
  requests: RecordedSalesforceRequest[];
  /** Replaces the org's records. */
  setData(data: SalesforceData): void;
  /** Makes every token issued so far answer 401 INVALID_SESSION_ID; new ones work. */
  expireTokens(): void;
  /** Tokens issued so far (the newest last). */
  issuedTokens(): string[];
  /** Queues faults for the next requests (of the fault's `on`), in order. */
  fail(...faults: SalesforceFault[]): void;
  /** Resolves once `count` requests have arrived in total (token requests included). */
  whenRequested(count: number): Promise<RecordedSalesforceRequest>;
  /** Forgets recorded requests, queued faults and query locators. */
  reset(): void;
  close(): Promise<void>;
};

/** Key prefixes of the standard objects served, and of the org and user ids. */
export const keyPrefixes = {
  Account: '001',
  Contact: '003',
  Lead: '00Q',
  Campaign: '701',
  CampaignMember: '00v',
  Organization: '00D',
  User: '005',
} as const;

const suffixAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';

/** The 18-character form of a 15-character Id (the case-encoding suffix added). */
export function to18(id15: string): string {
  let suffix = '';
  for (let chunk = 0; chunk < 3; chunk += 1) {
    let bits = 0;
    for (let i = 0; i < 5; i += 1) {
      const c = id15.charCodeAt(chunk * 5 + i);
      if (c >= 65 && c <= 90) bits |= 1 << i;
    }
    suffix += suffixAlphabet[bits];
  }
  return id15 + suffix;
}

/** An 18-character Salesforce Id: the key prefix, then `n` in base 36 (pod `0R`). */
export function salesforceId(prefix: string, n: number): string {
  const body = n.toString(36).toUpperCase().padStart(10, '0');
  return to18(`${prefix}0R${body}`.slice(0, 15));
}

const field = (
  name: string,
  type: SalesforceFieldType,
  extra: Partial<SalesforceField> = {},
): SalesforceField => ({ name, type, ...extra });
const lookup = (name: string, target: string, relationshipName: string) =>
  field(name, 'reference', { referenceTo: [target], relationshipName });
const audit = [
  field('CreatedDate', 'datetime'),
  field('LastModifiedDate', 'datetime'),
  field('IsDeleted', 'boolean'),
];

/** The standard fields served for each object (a subset of the real ones). */
const standardFields: Record<string, SalesforceField[]> = {
  Account: [
    field('Id', 'id'),
    field('Name', 'string'),
    field('Type', 'picklist'),
    field('Industry', 'picklist'),
    field('Website', 'url'),
    field('BillingCity', 'string'),
    field('BillingCountry', 'string'),
    field('NumberOfEmployees', 'int'),
    field('AnnualRevenue', 'currency'),
    lookup('ParentId', 'Account', 'Parent'),
    ...audit,
  ],
  Contact: [
    field('Id', 'id'),
    field('FirstName', 'string'),
    field('LastName', 'string'),
    field('Name', 'string'),
    field('Email', 'email'),
    field('Title', 'string'),
    field('Department', 'string'),
    field('Phone', 'phone'),
    field('MailingCity', 'string'),
    field('MailingCountry', 'string'),
    field('HasOptedOutOfEmail', 'boolean'),
    lookup('AccountId', 'Account', 'Account'),
    ...audit,
  ],
  Lead: [
    field('Id', 'id'),
    field('FirstName', 'string'),
    field('LastName', 'string'),
    field('Name', 'string'),
    field('Email', 'email'),
    field('Title', 'string'),
    field('Company', 'string'),
    field('Industry', 'picklist'),
    field('NumberOfEmployees', 'int'),
    field('AnnualRevenue', 'currency'),
    field('Status', 'picklist'),
    field('City', 'string'),
    field('Country', 'string'),
    field('IsConverted', 'boolean'),
    field('HasOptedOutOfEmail', 'boolean'),
    lookup('ConvertedAccountId', 'Account', 'ConvertedAccount'),
    lookup('ConvertedContactId', 'Contact', 'ConvertedContact'),
    ...audit,
  ],
  Campaign: [
    field('Id', 'id'),
    field('Name', 'string'),
    field('Type', 'picklist'),
    field('Status', 'picklist'),
    field('Description', 'textarea'),
    field('StartDate', 'date'),
    field('EndDate', 'date'),
    field('IsActive', 'boolean'),
    field('BudgetedCost', 'currency'),
    field('ActualCost', 'currency'),
    field('ExpectedRevenue', 'currency'),
    field('ExpectedResponse', 'percent'),
    field('NumberSent', 'double'),
    field('NumberOfContacts', 'int'),
    field('NumberOfLeads', 'int'),
    field('NumberOfResponses', 'int'),
    lookup('ParentId', 'Campaign', 'Parent'),
    ...audit,
  ],
  CampaignMember: [
    field('Id', 'id'),
    lookup('CampaignId', 'Campaign', 'Campaign'),
    lookup('ContactId', 'Contact', 'Contact'),
    lookup('LeadId', 'Lead', 'Lead'),
    field('Status', 'picklist'),
    field('HasResponded', 'boolean'),
    field('FirstRespondedDate', 'date'),
    field('Type', 'string'),
    ...audit,
  ],
};

const labelOf = (name: string) =>
  name
    .replace(/__c$/, '')
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2');

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:?\d{2})$/;
const plainNumber = /^-?\d+(?:\.\d+)?$/;
const idShape = /^[a-z0-9]{15}(?:[a-z0-9]{3})?$/i;

function inferType(value: unknown): SalesforceFieldType {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string' && isoDate.test(value)) return 'date';
  if (typeof value === 'string' && isoDateTime.test(value)) return 'datetime';
  return 'string';
}

type ObjectSchema = {
  name: string;
  fields: SalesforceField[];
  /** By lower-cased field name. */
  byName: Map<string, SalesforceField>;
  /** By lower-cased relationship name. */
  byRelationship: Map<string, SalesforceField>;
};

function buildSchemas(data: SalesforceData, extra: Record<string, SalesforceField[]>) {
  const schemas = new Map<string, ObjectSchema>();
  const names = new Set([...Object.keys(standardFields), ...Object.keys(data), ...Object.keys(extra)]);
  for (const name of names) {
    const fields = new Map<string, SalesforceField>();
    for (const f of standardFields[name] ?? [field('Id', 'id')]) fields.set(f.name.toLowerCase(), f);
    for (const record of data[name] ?? []) {
      for (const [key, value] of Object.entries(record)) {
        if (!fields.has(key.toLowerCase()) && value !== null && value !== undefined) {
          fields.set(key.toLowerCase(), field(key, inferType(value)));
        }
      }
    }
    for (const f of extra[name] ?? []) fields.set(f.name.toLowerCase(), f);
    const list = [...fields.values()];
    schemas.set(name.toLowerCase(), {
      name,
      fields: list,
      byName: fields,
      byRelationship: new Map(
        list.filter((f) => f.relationshipName).map((f) => [f.relationshipName!.toLowerCase(), f]),
      ),
    });
  }
  return schemas;
}

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

// ---------------------------------------------------------------------------------------------
// SOQL: tokens

type Token =
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

/** Where a position is, in Salesforce's error message form. */
function located(soql: string, pos: number, message: string): string {
  const before = soql.slice(0, pos);
  const row = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  const line = soql.split('\n')[row - 1] ?? '';
  return `\n${line}\n${' '.repeat(column - 1)}^\nERROR at Row:${row}:Column:${column}\n${message}`;
}

function tokenize(soql: string): Token[] {
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

// ---------------------------------------------------------------------------------------------
// SOQL: syntax

type Literal =
  | { kind: 'string'; value: string; raw: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'date' | 'datetime'; value: string };

type Path = { text: string; pos: number };

type Condition =
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

// ---------------------------------------------------------------------------------------------
// SOQL: evaluation over the org

type Org = {
  schemas: Map<string, ObjectSchema>;
  /** Records by object (lower-cased) and by Id (15 and 18 characters). */
  byId: Map<string, Map<string, SalesforceRecord>>;
  records: Map<string, SalesforceRecord[]>;
};

function buildOrg(data: SalesforceData, extra: Record<string, SalesforceField[]>): Org {
  const schemas = buildSchemas(data, extra);
  const byId = new Map<string, Map<string, SalesforceRecord>>();
  const records = new Map<string, SalesforceRecord[]>();
  for (const [name, list] of Object.entries(data)) {
    const normalized = (list ?? []).map((record) => {
      const out: SalesforceRecord = { ...record };
      if ((name === 'Contact' || name === 'Lead') && out.Name === undefined) {
        out.Name = [record.FirstName, record.LastName].filter((x) => typeof x === 'string' && x).join(' ');
      }
      return out;
    });
    const index = new Map<string, SalesforceRecord>();
    for (const record of normalized) {
      index.set(record.Id, record);
      index.set(record.Id.slice(0, 15), record);
    }
    byId.set(name.toLowerCase(), index);
    records.set(name.toLowerCase(), normalized);
  }
  return { schemas, byId, records };
}

/** A field path resolved against the schema: the lookups to follow, then the field. */
type ResolvedPath = {
  hops: { field: SalesforceField; schema: ObjectSchema }[];
  field: SalesforceField;
  names: string[];
};

function resolvePath(org: Org, root: ObjectSchema, path: Path, soql: string): ResolvedPath {
  const parts = path.text.split('.');
  // `Contact.Title` on Contact may name the object itself first.
  if (
    parts.length > 1 &&
    parts[0]!.toLowerCase() === root.name.toLowerCase() &&
    !root.byRelationship.has(parts[0]!.toLowerCase())
  ) {
    parts.shift();
  }
  let schema = root;
  const hops: ResolvedPath['hops'] = [];
  const names: string[] = [];
  for (const part of parts.slice(0, -1)) {
    const lookupField = schema.byRelationship.get(part.toLowerCase());
    const target = lookupField?.referenceTo?.[0] && org.schemas.get(lookupField.referenceTo[0].toLowerCase());
    if (!lookupField || !target) {
      throw new SalesforceApiError(
        400,
        'INVALID_FIELD',
        located(
          soql,
          path.pos,
          `Didn't understand relationship '${part}' in field path. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name. Please reference your WSDL or the describe call for the appropriate names.`,
        ),
      );
    }
    hops.push({ field: lookupField, schema });
    names.push(lookupField.relationshipName!);
    schema = target;
  }
  const last = parts.at(-1)!;
  const found = schema.byName.get(last.toLowerCase());
  if (!found) {
    throw new SalesforceApiError(
      400,
      'INVALID_FIELD',
      located(
        soql,
        path.pos,
        `No such column '${last}' on entity '${schema.name}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names.`,
      ),
    );
  }
  names.push(found.name);
  return { hops, field: found, names };
}

function valueAt(org: Org, record: SalesforceRecord, path: ResolvedPath): unknown {
  let current: SalesforceRecord | undefined = record;
  for (const hop of path.hops) {
    const id: unknown = current[hop.field.name];
    const target: string = hop.field.referenceTo![0]!.toLowerCase();
    current = typeof id === 'string' ? org.byId.get(target)?.get(id) : undefined;
    if (!current) return null;
  }
  return current[path.field.name] ?? null;
}

const numericTypes = new Set<SalesforceFieldType>(['int', 'double', 'currency', 'percent']);
const textTypes = new Set<SalesforceFieldType>(['string', 'textarea', 'picklist', 'email', 'url', 'phone']);

/** Refuses a literal of the wrong kind for the field, as Salesforce does. */
function checkLiteral(field: SalesforceField, literal: Literal, soql: string, pos: number) {
  const refuse = (message: string) =>
    new SalesforceApiError(400, 'INVALID_QUERY_FILTER_OPERATOR', located(soql, pos, message));
  if (literal.kind === 'null') return;
  const t = field.type;
  if (t === 'id' || t === 'reference') {
    if (literal.kind !== 'string') {
      throw refuse(
        `value of filter criterion for field '${field.name}' must be of type id and should be enclosed in quotes`,
      );
    }
    if (!idShape.test(literal.value)) throw refuse(`invalid ID field: ${literal.value}`);
  } else if (textTypes.has(t)) {
    if (literal.kind !== 'string') {
      throw refuse(
        `value of filter criterion for field '${field.name}' must be of type string and should be enclosed in quotes`,
      );
    }
  } else if (literal.kind !== (t === 'boolean' ? 'boolean' : numericTypes.has(t) ? 'number' : t)) {
    const kind = t === 'boolean' ? 'boolean' : numericTypes.has(t) ? 'double' : t;
    throw refuse(
      `value of filter criterion for field '${field.name}' must be of type ${kind} and should not be enclosed in quotes`,
    );
  }
}

function sameId(a: string, b: string) {
  return a === b || (b.length === 15 && a.slice(0, 15) === b) || (a.length === 15 && b.slice(0, 15) === a);
}

/** Compares a field's value with a literal: negative, zero, positive; undefined when unordered. */
function compareValue(field: SalesforceField, value: unknown, literal: Literal): number | undefined {
  if (value === null || value === undefined || literal.kind === 'null') return undefined;
  if (field.type === 'id' || field.type === 'reference') {
    return sameId(String(value), (literal as { value: string }).value)
      ? 0
      : String(value) < String((literal as { value: string }).value)
        ? -1
        : 1;
  }
  if (literal.kind === 'number') return Number(value) - literal.value;
  if (literal.kind === 'boolean') return value === literal.value ? 0 : 1;
  if (literal.kind === 'datetime') return Date.parse(String(value)) - Date.parse(literal.value);
  const a = String(value).toLowerCase();
  const b = String(literal.value).toLowerCase();
  return a === b ? 0 : a < b ? -1 : 1;
}

/** SOQL LIKE: `%` any run, `_` one character, a character after `\` itself; case-insensitive. */
function likeMatches(value: string, pattern: string): boolean {
  const items: { any?: boolean; one?: boolean; char?: string }[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      items.push({ char: pattern[i + 1]! });
      i += 1;
    } else if (c === '%') items.push({ any: true });
    else if (c === '_') items.push({ one: true });
    else items.push({ char: c.toLowerCase() });
  }
  const text = value.toLowerCase();
  // Reachable pattern positions after each character: linear in text × pattern.
  let states = new Set<number>([0]);
  const close = (set: Set<number>) => {
    for (const s of [...set].sort((x, y) => x - y)) {
      if (items[s]?.any) set.add(s + 1);
    }
    return set;
  };
  states = close(states);
  for (const ch of text) {
    const nextStates = new Set<number>();
    for (const s of states) {
      const item = items[s];
      if (!item) continue;
      if (item.any) nextStates.add(s);
      else if (item.one || item.char === ch) nextStates.add(s + 1);
    }
    states = close(nextStates);
    if (states.size === 0) return false;
  }
  return states.has(items.length);
}

type CompiledCondition = (record: SalesforceRecord) => boolean;

function compile(org: Org, root: ObjectSchema, condition: Condition, soql: string): CompiledCondition {
  switch (condition.kind) {
    case 'and': {
      const parts = condition.parts.map((p) => compile(org, root, p, soql));
      return (r) => parts.every((p) => p(r));
    }
    case 'or': {
      const parts = condition.parts.map((p) => compile(org, root, p, soql));
      return (r) => parts.some((p) => p(r));
    }
    case 'not': {
      const part = compile(org, root, condition.part, soql);
      return (r) => !part(r);
    }
    case 'like': {
      const path = resolvePath(org, root, condition.path, soql);
      if (!textTypes.has(path.field.type)) {
        throw new SalesforceApiError(
          400,
          'INVALID_QUERY_FILTER_OPERATOR',
          located(soql, condition.pos, `invalid operator on ${path.field.type} field: LIKE`),
        );
      }
      return (r) => {
        const value = valueAt(org, r, path);
        return typeof value === 'string' && likeMatches(value, condition.pattern);
      };
    }
    case 'in': {
      const path = resolvePath(org, root, condition.path, soql);
      for (const l of condition.literals) checkLiteral(path.field, l, soql, condition.pos);
      return (r) => {
        const value = valueAt(org, r, path);
        const found = condition.literals.some((l) =>
          l.kind === 'null' ? value === null : compareValue(path.field, value, l) === 0,
        );
        return condition.negated ? !found : found;
      };
    }
    case 'compare': {
      const path = resolvePath(org, root, condition.path, soql);
      checkLiteral(path.field, condition.literal, soql, condition.pos);
      const { op, literal } = condition;
      return (r) => {
        const value = valueAt(org, r, path);
        if (literal.kind === 'null') {
          if (op === '=') return value === null;
          if (op === '!=') return value !== null;
          return false;
        }
        const c = compareValue(path.field, value, literal);
        if (c === undefined) return op === '!=';
        switch (op) {
          case '=':
            return c === 0;
          case '!=':
            return c !== 0;
          case '<':
            return c < 0;
          case '<=':
            return c <= 0;
          case '>':
            return c > 0;
          default:
            return c >= 0;
        }
      };
    }
  }
}

function sortKey(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.toLowerCase();
  return value as number | boolean;
}

/** Runs a parsed query: the matching records, shaped as the REST API returns them. */
function runQuery(
  org: Org,
  query: SoqlQuery,
  soql: string,
  version: string,
): { totalSize: number; records: Record<string, unknown>[] } {
  const root = org.schemas.get(query.object.toLowerCase());
  if (!root) {
    throw new SalesforceApiError(
      400,
      'INVALID_TYPE',
      located(
        soql,
        query.objectPos,
        `sObject type '${query.object}' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names.`,
      ),
    );
  }
  const selected = query.fields === 'count' ? [] : query.fields.map((f) => resolvePath(org, root, f, soql));
  const where = query.where ? compile(org, root, query.where, soql) : () => true;
  const order = query.orderBy.map((o) => ({ ...o, resolved: resolvePath(org, root, o.path, soql) }));
  let matches = (org.records.get(root.name.toLowerCase()) ?? []).filter(where);
  if (order.length > 0) {
    matches = [...matches].sort((a, b) => {
      for (const o of order) {
        const x = sortKey(valueAt(org, a, o.resolved));
        const y = sortKey(valueAt(org, b, o.resolved));
        if (x === y) continue;
        if (x === null) return o.nullsLast ? 1 : -1;
        if (y === null) return o.nullsLast ? -1 : 1;
        const c = x < y ? -1 : 1;
        return o.descending ? -c : c;
      }
      return 0;
    });
  }
  matches = matches.slice(
    query.offset ?? 0,
    query.limit === undefined ? undefined : (query.offset ?? 0) + query.limit,
  );
  if (query.fields === 'count') return { totalSize: matches.length, records: [] };
  const attributes = (type: string, id: string) => ({
    type,
    url: `/services/data/v${version}/sobjects/${type}/${id}`,
  });
  const shape = (record: SalesforceRecord) => {
    const out: Record<string, unknown> = { attributes: attributes(root.name, record.Id) };
    for (const path of selected) {
      let target = out;
      let current: SalesforceRecord | undefined = record;
      let hopIndex = 0;
      for (; hopIndex < path.hops.length; hopIndex += 1) {
        const hop = path.hops[hopIndex]!;
        const name = path.names[hopIndex]!;
        const id: unknown = current[hop.field.name];
        const type = hop.field.referenceTo![0]!;
        current = typeof id === 'string' ? org.byId.get(type.toLowerCase())?.get(id) : undefined;
        if (!current) {
          if (!(name in target)) target[name] = null;
          break;
        }
        const existing = target[name];
        if (existing === null || typeof existing !== 'object') {
          target[name] = { attributes: attributes(org.schemas.get(type.toLowerCase())!.name, current.Id) };
        }
        target = target[name] as Record<string, unknown>;
      }
      if (hopIndex === path.hops.length && current)
        target[path.field.name] = current[path.field.name] ?? null;
    }
    return out;
  };
  return { totalSize: matches.length, records: matches.map(shape) };
}

// ---------------------------------------------------------------------------------------------
// The server

const json = 'application/json;charset=UTF-8';
const versionedPath = /^\/services\/data\/v(\d{2,3}\.\d)(\/.*)?$/;

const randomAlnum = (length: number) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (b) => alphabet[b % alphabet.length]).join('');
};

export async function startSalesforceServer(
  options: SalesforceServerOptions = {},
): Promise<SalesforceServer> {
  const clientId = options.clientId ?? '3MVG9gem.test.client.id';
  const clientSecret = options.clientSecret ?? 'gem-test-client-secret';
  const pageSize = options.pageSize ?? 2000;
  const orgId = salesforceId(keyPrefixes.Organization, 1);
  const userId = salesforceId(keyPrefixes.User, 1);
  let org = buildOrg(options.data ?? {}, options.fields ?? {});
  const tokens = new Map<string, { expired: boolean }>();
  const locators = new Map<
    string,
    { records: Record<string, unknown>[]; totalSize: number; pageSize: number }
  >();
  let faults: SalesforceFault[] = [];
  const requests: RecordedSalesforceRequest[] = [];
  const waiters: { count: number; resolve: (r: RecordedSalesforceRequest) => void }[] = [];

  const sendJson = (
    res: ServerResponse,
    recorded: RecordedSalesforceRequest,
    status: number,
    body: unknown,
  ) => {
    recorded.status = status;
    res.writeHead(status, { 'content-type': json });
    res.end(JSON.stringify(body));
  };
  const sendError = (res: ServerResponse, recorded: RecordedSalesforceRequest, error: SalesforceApiError) => {
    recorded.errorCode = error.errorCode;
    sendJson(res, recorded, error.status, [{ message: error.message, errorCode: error.errorCode }]);
  };
  const oauthError = (
    res: ServerResponse,
    recorded: RecordedSalesforceRequest,
    status: number,
    error: string,
    description: string,
  ) => {
    recorded.errorCode = error;
    sendJson(res, recorded, status, { error, error_description: description });
  };

  const takeFault = (on: 'api' | 'token') => {
    const index = faults.findIndex((f) => (f.on ?? 'api') === on);
    return index < 0 ? undefined : faults.splice(index, 1)[0];
  };
  const applyFault = (fault: SalesforceFault, res: ServerResponse, recorded: RecordedSalesforceRequest) => {
    if (fault.kind === 'hang') return;
    if (fault.kind === 'html') {
      recorded.status = fault.status;
      res.writeHead(fault.status, { 'content-type': 'text/html' });
      res.end(
        `<html><head><title>Error ${fault.status}</title></head><body>Service unavailable</body></html>`,
      );
      return;
    }
    const defaults: Record<number, [string, string]> = {
      503: ['SERVER_UNAVAILABLE', 'Server is temporarily unavailable. Please try again later.'],
      500: [
        'UNKNOWN_EXCEPTION',
        `An unexpected error occurred. Please include this ErrorId if you contact support: ${randomBytes(4).readUInt32BE()}-${randomBytes(2).readUInt16BE()} (-1234567890)`,
      ],
      403: ['REQUEST_LIMIT_EXCEEDED', 'TotalRequests Limit exceeded.'],
    };
    const [errorCode, message] = defaults[fault.status] ?? [`ERROR_HTTP_${fault.status}`, 'Error'];
    sendError(
      res,
      recorded,
      new SalesforceApiError(fault.status, fault.errorCode ?? errorCode, fault.message ?? message),
    );
  };

  const issueToken = (res: ServerResponse, recorded: RecordedSalesforceRequest) => {
    const accessToken = `${orgId.slice(0, 15)}!${randomAlnum(96)}`;
    tokens.set(accessToken, { expired: false });
    const id = `${url}/id/${orgId}/${userId}`;
    const issuedAt = String(Date.now());
    sendJson(res, recorded, 200, {
      access_token: accessToken,
      signature: createHmac('sha256', clientSecret)
        .update(id + issuedAt)
        .digest('base64'),
      scope: options.scope ?? 'api',
      instance_url: url,
      id,
      token_type: 'Bearer',
      issued_at: issuedAt,
    });
  };

  const handleToken = async (
    req: IncomingMessage,
    res: ServerResponse,
    recorded: RecordedSalesforceRequest,
    body: string,
  ) => {
    if (req.method !== 'POST') return oauthError(res, recorded, 400, 'invalid_request', 'must use HTTP POST');
    const form = Object.fromEntries(new URLSearchParams(body));
    recorded.form = form;
    let id = form.client_id;
    let secret = form.client_secret;
    const authorization = req.headers.authorization ?? '';
    if (authorization.toLowerCase().startsWith('basic ')) {
      const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) {
        id = decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' '));
        secret = decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' '));
      }
    }
    const grant = form.grant_type;
    if (!grant) return oauthError(res, recorded, 400, 'unsupported_grant_type', 'grant type not supported');
    if (grant === 'client_credentials') {
      if (id !== clientId)
        return oauthError(res, recorded, 400, 'invalid_client_id', 'client identifier invalid');
      if (secret !== clientSecret)
        return oauthError(res, recorded, 400, 'invalid_client', 'invalid client credentials');
      return issueToken(res, recorded);
    }
    if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer' && options.jwtPublicKey) {
      const assertion = form.assertion ?? '';
      try {
        const { payload } = await jwtVerify(assertion, options.jwtPublicKey, {
          algorithms: ['RS256'],
          audience: ['https://login.salesforce.com', 'https://test.salesforce.com', url],
          requiredClaims: ['iss', 'sub', 'aud', 'exp'],
        });
        if (payload.iss !== clientId) {
          return oauthError(res, recorded, 400, 'invalid_client_id', 'client identifier invalid');
        }
      } catch {
        return oauthError(res, recorded, 400, 'invalid_grant', 'invalid assertion');
      }
      return issueToken(res, recorded);
    }
    return oauthError(res, recorded, 400, 'unsupported_grant_type', 'grant type not supported');
  };

  const page = (
    version: string,
    locator: string | undefined,
    all: { records: Record<string, unknown>[]; totalSize: number; pageSize: number },
    offset: number,
  ) => {
    const records = all.records.slice(offset, offset + all.pageSize);
    const end = offset + records.length;
    const done = end >= all.records.length;
    return {
      totalSize: all.totalSize,
      done,
      ...(done ? {} : { nextRecordsUrl: `/services/data/v${version}/query/${locator}-${end}` }),
      records,
    };
  };

  const batchSizeOf = (req: IncomingMessage) => {
    const header = req.headers['sforce-query-options'];
    const value = typeof header === 'string' ? /batchSize=(\d+)/i.exec(header)?.[1] : undefined;
    return value === undefined ? pageSize : Math.min(Math.max(Number(value), 200), pageSize);
  };

  const handleApi = (
    req: IncomingMessage,
    res: ServerResponse,
    recorded: RecordedSalesforceRequest,
    version: string,
    rest: string,
  ) => {
    const authorization = req.headers.authorization ?? '';
    const token = authorization.startsWith('Bearer ') ? authorization.slice(7) : undefined;
    const session = token === undefined ? undefined : tokens.get(token);
    if (!session || session.expired) {
      return sendError(
        res,
        recorded,
        new SalesforceApiError(401, 'INVALID_SESSION_ID', 'Session expired or invalid'),
      );
    }
    const notFound = new SalesforceApiError(404, 'NOT_FOUND', 'The requested resource does not exist');
    if (req.method !== 'GET') {
      return sendError(
        res,
        recorded,
        new SalesforceApiError(
          405,
          'METHOD_NOT_ALLOWED',
          `HTTP Method '${req.method}' not allowed. Allowed are GET`,
        ),
      );
    }
    const segments = rest.split('/').filter(Boolean);
    const [head, second, third] = segments;
    if ((head === 'query' || head === 'queryAll') && segments.length === 1) {
      const soql = recorded.query.q;
      if (soql === undefined || soql.trim() === '') {
        return sendError(
          res,
          recorded,
          new SalesforceApiError(400, 'MALFORMED_QUERY', 'A query string has to be specified'),
        );
      }
      recorded.soql = soql;
      try {
        const query = parseSoql(soql);
        recorded.literals = query.literals;
        const result = runQuery(org, query, soql, version);
        const all = { ...result, pageSize: batchSizeOf(req) };
        const locator = `01g${randomAlnum(15)}`;
        if (all.records.length > all.pageSize) locators.set(locator, all);
        return sendJson(res, recorded, 200, page(version, locator, all, 0));
      } catch (error) {
        if (error instanceof SalesforceApiError) return sendError(res, recorded, error);
        throw error;
      }
    }
    if ((head === 'query' || head === 'queryAll') && second && segments.length === 2) {
      const dash = second.lastIndexOf('-');
      const offset = Number(second.slice(dash + 1));
      const all = dash > 0 && Number.isInteger(offset) ? locators.get(second.slice(0, dash)) : undefined;
      if (!all || offset < 0 || offset > all.records.length) {
        return sendError(
          res,
          recorded,
          new SalesforceApiError(400, 'INVALID_QUERY_LOCATOR', 'invalid query locator'),
        );
      }
      return sendJson(res, recorded, 200, page(version, second.slice(0, dash), all, offset));
    }
    if (head === 'sobjects' && segments.length === 1) {
      return sendJson(res, recorded, 200, {
        encoding: 'UTF-8',
        maxBatchSize: 200,
        sobjects: [...org.schemas.values()].map((s) => describeSummary(s, version)),
      });
    }
    if (head === 'sobjects' && second && third === 'describe' && segments.length === 3) {
      const schema = org.schemas.get(second.toLowerCase());
      if (!schema) return sendError(res, recorded, notFound);
      return sendJson(res, recorded, 200, describe(schema, version, org));
    }
    return sendError(res, recorded, notFound);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const parsed = new URL(req.url ?? '/', 'http://localhost');
    const recorded: RecordedSalesforceRequest = {
      method: req.method ?? 'GET',
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      headers: req.headers,
    };
    requests.push(recorded);
    for (const waiter of [...waiters]) {
      if (requests.length < waiter.count) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(requests[waiter.count - 1]!);
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const isToken = parsed.pathname === '/services/oauth2/token';
      const fault = takeFault(isToken ? 'token' : 'api');
      if (fault) return applyFault(fault, res, recorded);
      if (isToken) {
        void handleToken(req, res, recorded, body);
        return;
      }
      const match = versionedPath.exec(parsed.pathname);
      if (!match) {
        return sendError(
          res,
          recorded,
          new SalesforceApiError(404, 'NOT_FOUND', 'The requested resource does not exist'),
        );
      }
      handleApi(req, res, recorded, match[1]!, match[2] ?? '');
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const url = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;

  return {
    url,
    tokenUrl: `${url}/services/oauth2/token`,
    clientId,
    clientSecret,
    orgId,
    userId,
    requests,
    setData: (data) => {
      org = buildOrg(data, options.fields ?? {});
      locators.clear();
    },
    expireTokens: () => {
      for (const session of tokens.values()) session.expired = true;
    },
    issuedTokens: () => [...tokens.keys()],
    fail: (...more) => {
      faults.push(...more);
    },
    whenRequested: (count) =>
      new Promise((resolve) => {
        const arrived = requests[count - 1];
        if (arrived) resolve(arrived);
        else waiters.push({ count, resolve });
      }),
    reset: () => {
      requests.length = 0;
      faults = [];
      locators.clear();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function describeSummary(schema: ObjectSchema, version: string) {
  const prefix = keyPrefixes[schema.name as keyof typeof keyPrefixes] ?? null;
  const custom = schema.name.endsWith('__c');
  return {
    name: schema.name,
    label: labelOf(schema.name),
    labelPlural: `${labelOf(schema.name)}s`,
    keyPrefix: prefix,
    custom,
    queryable: true,
    retrieveable: true,
    searchable: true,
    createable: false,
    updateable: false,
    deletable: false,
    urls: {
      sobject: `/services/data/v${version}/sobjects/${schema.name}`,
      describe: `/services/data/v${version}/sobjects/${schema.name}/describe`,
      rowTemplate: `/services/data/v${version}/sobjects/${schema.name}/{ID}`,
    },
  };
}

const soapTypes: Partial<Record<SalesforceFieldType, string>> = {
  id: 'tns:ID',
  reference: 'tns:ID',
  boolean: 'xsd:boolean',
  int: 'xsd:int',
  double: 'xsd:double',
  currency: 'xsd:double',
  percent: 'xsd:double',
  date: 'xsd:date',
  datetime: 'xsd:dateTime',
};

function describe(schema: ObjectSchema, version: string, org: Org) {
  const records = org.records.get(schema.name.toLowerCase()) ?? [];
  return {
    ...describeSummary(schema, version),
    fields: schema.fields.map((f) => {
      const text = textTypes.has(f.type);
      const values =
        f.type === 'picklist'
          ? [...new Set(records.map((r) => r[f.name]).filter((v) => typeof v === 'string'))]
          : [];
      return {
        name: f.name,
        label: f.label ?? labelOf(f.name),
        type: f.type,
        soapType: soapTypes[f.type] ?? 'xsd:string',
        length:
          f.type === 'id' || f.type === 'reference' ? 18 : text ? (f.type === 'textarea' ? 32000 : 255) : 0,
        custom: f.name.endsWith('__c'),
        nillable: f.name !== 'Id' && f.type !== 'boolean',
        filterable: true,
        sortable: f.type !== 'textarea',
        groupable: f.type !== 'textarea',
        calculated: false,
        idLookup: f.name === 'Id',
        createable: f.type !== 'id',
        updateable: f.type !== 'id',
        referenceTo: f.referenceTo ?? [],
        relationshipName: f.relationshipName ?? null,
        picklistValues: values.map((value) => ({ active: true, defaultValue: false, label: value, value })),
      };
    }),
    childRelationships: [...org.schemas.values()].flatMap((child) =>
      child.fields
        .filter((f) => f.referenceTo?.includes(schema.name))
        .map((f) => ({
          childSObject: child.name,
          field: f.name,
          relationshipName: child.name === 'CampaignMember' ? 'CampaignMembers' : null,
          cascadeDelete: false,
        })),
    ),
  };
}

import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify, type CryptoKey, type KeyObject } from 'jose';
import { describe, describeSummary } from './salesforce/describe';
import { SalesforceApiError } from './salesforce/errors';
import type { SalesforceField } from './salesforce/field-types';
import { keyPrefixes, salesforceId } from './salesforce/ids';
import { buildOrg, type SalesforceData } from './salesforce/org';
import { runQuery } from './salesforce/run-query';
import { parseSoql } from './salesforce/soql-parser';

/**
 * A local Salesforce org that speaks the REST subset GEM's CRM adapter uses (as jsforce calls
 * it), so the real adapter is what tests exercise:
 *
 * - `POST /services/oauth2/token`: the client-credentials grant (client id and secret in the
 *   form body, as jsforce sends them, or in HTTP Basic auth), and the JWT bearer grant when a
 *   public key is configured. Answers Salesforce's token response; failures are Salesforce's
 *   `{ error, error_description }` with a 400.
 * - `GET /services/data/vXX.X/query?q=<SOQL>` (and `queryAll`): a strict SOQL subset over an
 *   in-memory org (see `salesforce/soql-parser.ts`), pages of 2,000 records (or the
 *   `Sforce-Query-Options: batchSize=n` header's), and the next page at
 *   `GET /services/data/vXX.X/query/<locator>-<offset>`, as `nextRecordsUrl` names it.
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

// The org and its data set, SOQL's tokens, syntax and evaluation, and describe live in
// salesforce/. Tests import them from here.
export { SalesforceApiError } from './salesforce/errors';
export type { SalesforceField, SalesforceFieldType } from './salesforce/field-types';
export { keyPrefixes, salesforceId, to18 } from './salesforce/ids';
export type { SalesforceData, SalesforceRecord } from './salesforce/org';
export { parseSoql, type SoqlQuery } from './salesforce/soql-parser';

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

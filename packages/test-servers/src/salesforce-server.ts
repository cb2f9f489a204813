import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CryptoKey, KeyObject } from 'jose';
import type { IngestJob } from './salesforce/bulk-ingest';
import type { RecordRejection } from './salesforce/dml';
import { applyFault, type SalesforceFault } from './salesforce/faults';
import type { SalesforceField } from './salesforce/field-types';
import type { RecordedSalesforceRequest } from './salesforce/http';
import { keyPrefixes, salesforceId } from './salesforce/ids';
import { buildOrg, type SalesforceData, type SalesforceRecord } from './salesforce/org';
import { restApi, type QueryResults } from './salesforce/rest-api';
import { tokenEndpoint, type Sessions } from './salesforce/token-endpoint';

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
 * - `POST /services/data/vXX.X/composite/sobjects`: sObject Collections create, up to 200
 *   records, a SaveResult per record (`allOrNone` honoured); see `salesforce/sobject-collections.ts`.
 * - Bulk API 2.0 ingest jobs (`/services/data/vXX.X/jobs/ingest`: create, upload the CSV, close,
 *   poll, the successful, failed and unprocessed records as CSV, delete); see
 *   `salesforce/bulk-ingest.ts`.
 * - Records are created as the org would: lookups checked, a contact or lead that is already a
 *   member of the campaign refused with `DUPLICATE_VALUE`, campaign member counts kept, and any
 *   record a test's rule picks refused with the rule's error (`rejectRecords`).
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

// The server's parts live in salesforce/: the org and its data set, SOQL's tokens, syntax and
// evaluation, describe, the token endpoint and the REST routes. Tests import them from here.
export { SalesforceApiError } from './salesforce/errors';
export type { SalesforceFault } from './salesforce/faults';
export type { SalesforceField, SalesforceFieldType } from './salesforce/field-types';
export type { RecordedSalesforceRequest } from './salesforce/http';
export { keyPrefixes, salesforceId, to18 } from './salesforce/ids';
export type { SalesforceData, SalesforceRecord } from './salesforce/org';
export type { RecordRejection, SaveResult } from './salesforce/dml';
export { parseCsv } from './salesforce/csv';
export { parseSoql, type SoqlQuery } from './salesforce/soql-parser';

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
  /** How many polls of a closed Bulk API 2.0 ingest job answer InProgress before it completes (1). */
  bulkPollsInProgress?: number;
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
  /** The org's records of an object as they are now (created ones included). */
  records(object: string): SalesforceRecord[];
  /** Refuses every record created from now on that one of the rules picks (none: accept all again). */
  rejectRecords(rules: RecordRejection[]): void;
  /** Makes every token issued so far answer 401 INVALID_SESSION_ID; new ones work. */
  expireTokens(): void;
  /** Tokens issued so far (the newest last). */
  issuedTokens(): string[];
  /** Queues faults for the next requests (of the fault's `on` and `path`), in order. */
  fail(...faults: SalesforceFault[]): void;
  /** Resolves once `count` requests have arrived in total (token requests included). */
  whenRequested(count: number): Promise<RecordedSalesforceRequest>;
  /** Forgets recorded requests, queued faults, query locators, ingest jobs and rejection rules. */
  reset(): void;
  close(): Promise<void>;
};

export async function startSalesforceServer(
  options: SalesforceServerOptions = {},
): Promise<SalesforceServer> {
  const clientId = options.clientId ?? '3MVG9gem.test.client.id';
  const clientSecret = options.clientSecret ?? 'gem-test-client-secret';
  const orgId = salesforceId(keyPrefixes.Organization, 1);
  const userId = salesforceId(keyPrefixes.User, 1);
  let org = buildOrg(options.data ?? {}, options.fields ?? {});
  const sessions: Sessions = new Map();
  const locators = new Map<string, QueryResults>();
  const jobs = new Map<string, IngestJob>();
  let rejections: RecordRejection[] = [];
  let faults: SalesforceFault[] = [];
  const requests: RecordedSalesforceRequest[] = [];
  const waiters: { count: number; resolve: (r: RecordedSalesforceRequest) => void }[] = [];

  const takeFault = (on: 'api' | 'token', path: string) => {
    const index = faults.findIndex(
      (f) => (f.on ?? 'api') === on && (f.path === undefined || path.includes(f.path)),
    );
    return index < 0 ? undefined : faults.splice(index, 1)[0];
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
      // A token request's body holds the client secret: its form is recorded, not the body.
      if (!isToken && body !== '') recorded.body = body;
      const fault = takeFault(isToken ? 'token' : 'api', parsed.pathname);
      if (fault) return applyFault(fault, res, recorded);
      if (isToken) {
        void token(req, res, recorded, body);
        return;
      }
      api(req, res, recorded, body);
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const url = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const token = tokenEndpoint({
    url,
    clientId,
    clientSecret,
    orgId,
    userId,
    sessions,
    scope: options.scope,
    jwtPublicKey: options.jwtPublicKey,
  });
  const api = restApi({
    sessions,
    org: () => org,
    locators,
    pageSize: options.pageSize ?? 2000,
    rejections: () => rejections,
    jobs,
    pollsInProgress: options.bulkPollsInProgress ?? 1,
    userId,
  });

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
      jobs.clear();
    },
    records: (object) => [...(org.records.get(object.toLowerCase()) ?? [])],
    rejectRecords: (rules) => {
      rejections = [...rules];
    },
    expireTokens: () => {
      for (const session of sessions.values()) session.expired = true;
    },
    issuedTokens: () => [...sessions.keys()],
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
      jobs.clear();
      rejections = [];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

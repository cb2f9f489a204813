import type { IncomingMessage, ServerResponse } from 'node:http';
import { bulkIngest, type IngestJob } from './bulk-ingest';
import { describe, describeSummary } from './describe';
import type { RecordRejection } from './dml';
import { SalesforceApiError } from './errors';
import { randomAlnum, sendError, sendJson, type RecordedSalesforceRequest } from './http';
import type { Org } from './org';
import { runQuery } from './run-query';
import { createCollection } from './sobject-collections';
import { parseSoql } from './soql-parser';
import type { Sessions } from './token-endpoint';

/**
 * The REST API under `/services/data/vXX.X/`, for a bearer token the token endpoint issued:
 * `query?q=<SOQL>` (and `queryAll`) in pages, `query/<locator>-<offset>` for the next page as
 * `nextRecordsUrl` names it, `sobjects` and `sobjects/<Object>/describe`; records created with
 * `POST composite/sobjects` (sobject-collections.ts) and Bulk API 2.0 ingest jobs under
 * `jobs/ingest` (bulk-ingest.ts).
 */

/** A query's records, kept under its locator while pages remain. */
export type QueryResults = { records: Record<string, unknown>[]; totalSize: number; pageSize: number };

export type RestApiOptions = {
  sessions: Sessions;
  /** The org as it is now (a test may replace its records). */
  org: () => Org;
  locators: Map<string, QueryResults>;
  /** Records per page, unless the `Sforce-Query-Options` header asks for fewer. */
  pageSize: number;
  /** The rules a test set to refuse records on create. */
  rejections: () => readonly RecordRejection[];
  /** Bulk API 2.0 ingest jobs by id. */
  jobs: Map<string, IngestJob>;
  /** How many polls of a closed ingest job answer InProgress before it completes. */
  pollsInProgress: number;
  /** The integration user: who creates jobs. */
  userId: string;
};

const versionedPath = /^\/services\/data\/v(\d{2,3}\.\d)(\/.*)?$/;

const notFound = () => new SalesforceApiError(404, 'NOT_FOUND', 'The requested resource does not exist');

const page = (version: string, locator: string | undefined, all: QueryResults, offset: number) => {
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

export function restApi({
  sessions,
  org,
  locators,
  pageSize,
  rejections,
  jobs,
  pollsInProgress,
  userId,
}: RestApiOptions) {
  const ingest = bulkIngest({ org, rejections, jobs, pollsInProgress, userId });
  const batchSizeOf = (req: IncomingMessage) => {
    const header = req.headers['sforce-query-options'];
    const value = typeof header === 'string' ? /batchSize=(\d+)/i.exec(header)?.[1] : undefined;
    return value === undefined ? pageSize : Math.min(Math.max(Number(value), 200), pageSize);
  };

  const query = (
    req: IncomingMessage,
    res: ServerResponse,
    recorded: RecordedSalesforceRequest,
    version: string,
  ) => {
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
      const parsed = parseSoql(soql);
      recorded.literals = parsed.literals;
      const result = runQuery(org(), parsed, soql, version);
      const all = { ...result, pageSize: batchSizeOf(req) };
      const locator = `01g${randomAlnum(15)}`;
      if (all.records.length > all.pageSize) locators.set(locator, all);
      return sendJson(res, recorded, 200, page(version, locator, all, 0));
    } catch (error) {
      if (error instanceof SalesforceApiError) return sendError(res, recorded, error);
      throw error;
    }
  };

  const nextPage = (
    res: ServerResponse,
    recorded: RecordedSalesforceRequest,
    version: string,
    locatorAndOffset: string,
  ) => {
    const dash = locatorAndOffset.lastIndexOf('-');
    const offset = Number(locatorAndOffset.slice(dash + 1));
    const all =
      dash > 0 && Number.isInteger(offset) ? locators.get(locatorAndOffset.slice(0, dash)) : undefined;
    if (!all || offset < 0 || offset > all.records.length) {
      return sendError(
        res,
        recorded,
        new SalesforceApiError(400, 'INVALID_QUERY_LOCATOR', 'invalid query locator'),
      );
    }
    return sendJson(res, recorded, 200, page(version, locatorAndOffset.slice(0, dash), all, offset));
  };

  const methodNotAllowed = (method: string, allowed: string) =>
    new SalesforceApiError(
      405,
      'METHOD_NOT_ALLOWED',
      `HTTP Method '${method}' not allowed. Allowed are ${allowed}`,
    );

  const route = (
    req: IncomingMessage,
    res: ServerResponse,
    recorded: RecordedSalesforceRequest,
    version: string,
    segments: string[],
    body: string,
  ) => {
    const method = req.method ?? 'GET';
    const [head, second, third] = segments;
    if (head === 'composite' && second === 'sobjects' && segments.length === 2) {
      if (method !== 'POST') throw methodNotAllowed(method, 'POST');
      return sendJson(res, recorded, 200, createCollection(org(), body, rejections()));
    }
    if (head === 'jobs' && second === 'ingest') {
      return ingest(method, segments.slice(2), body, res, recorded, version);
    }
    if (method !== 'GET') throw methodNotAllowed(method, 'GET');
    if ((head === 'query' || head === 'queryAll') && segments.length === 1) {
      return query(req, res, recorded, version);
    }
    if ((head === 'query' || head === 'queryAll') && second && segments.length === 2) {
      return nextPage(res, recorded, version, second);
    }
    if (head === 'sobjects' && segments.length === 1) {
      return sendJson(res, recorded, 200, {
        encoding: 'UTF-8',
        maxBatchSize: 200,
        sobjects: [...org().schemas.values()].map((s) => describeSummary(s, version)),
      });
    }
    if (head === 'sobjects' && second && third === 'describe' && segments.length === 3) {
      const schema = org().schemas.get(second.toLowerCase());
      if (!schema) return sendError(res, recorded, notFound());
      return sendJson(res, recorded, 200, describe(schema, version, org()));
    }
    return sendError(res, recorded, notFound());
  };

  return (req: IncomingMessage, res: ServerResponse, recorded: RecordedSalesforceRequest, body: string) => {
    const match = versionedPath.exec(recorded.path);
    if (!match) return sendError(res, recorded, notFound());
    const version = match[1]!;
    const authorization = req.headers.authorization ?? '';
    const token = authorization.startsWith('Bearer ') ? authorization.slice(7) : undefined;
    const session = token === undefined ? undefined : sessions.get(token);
    if (!session || session.expired) {
      return sendError(
        res,
        recorded,
        new SalesforceApiError(401, 'INVALID_SESSION_ID', 'Session expired or invalid'),
      );
    }
    const segments = (match[2] ?? '').split('/').filter(Boolean);
    try {
      return route(req, res, recorded, version, segments, body);
    } catch (error) {
      if (error instanceof SalesforceApiError) return sendError(res, recorded, error);
      throw error;
    }
  };
}

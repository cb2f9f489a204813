import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, describeSummary } from './describe';
import { SalesforceApiError } from './errors';
import { randomAlnum, sendError, sendJson, type RecordedSalesforceRequest } from './http';
import type { Org } from './org';
import { runQuery } from './run-query';
import { parseSoql } from './soql-parser';
import type { Sessions } from './token-endpoint';

/**
 * The REST API under `/services/data/vXX.X/`, for a bearer token the token endpoint issued:
 * `query?q=<SOQL>` (and `queryAll`) in pages, `query/<locator>-<offset>` for the next page as
 * `nextRecordsUrl` names it, `sobjects` and `sobjects/<Object>/describe`.
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

export function restApi({ sessions, org, locators, pageSize }: RestApiOptions) {
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

  return (req: IncomingMessage, res: ServerResponse, recorded: RecordedSalesforceRequest) => {
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
    const segments = (match[2] ?? '').split('/').filter(Boolean);
    const [head, second, third] = segments;
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
}

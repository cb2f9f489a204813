import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SalesforceApiError } from './errors';

/** What the server records of each request, and its answers in Salesforce's shapes. */

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
  /** The body of a REST request that has one (a collection's records, a job's CSV). */
  body?: string;
  /** The status answered; undefined while hanging. */
  status?: number;
  /** The errorCode (REST) or error (OAuth) answered, if any. */
  errorCode?: string;
};

const json = 'application/json;charset=UTF-8';

export const sendJson = (
  res: ServerResponse,
  recorded: RecordedSalesforceRequest,
  status: number,
  body: unknown,
) => {
  recorded.status = status;
  res.writeHead(status, { 'content-type': json });
  res.end(JSON.stringify(body));
};

/** A text body (a Bulk API result file) of this content type. */
export const sendText = (
  res: ServerResponse,
  recorded: RecordedSalesforceRequest,
  status: number,
  contentType: string,
  body: string,
) => {
  recorded.status = status;
  res.writeHead(status, { 'content-type': `${contentType};charset=UTF-8` });
  res.end(body);
};

/** A status with no body (201 for an upload, 204 for a delete). */
export const sendEmpty = (res: ServerResponse, recorded: RecordedSalesforceRequest, status: number) => {
  recorded.status = status;
  res.writeHead(status);
  res.end();
};

/** A REST error: `[{ message, errorCode }]`. */
export const sendError = (
  res: ServerResponse,
  recorded: RecordedSalesforceRequest,
  error: SalesforceApiError,
) => {
  recorded.errorCode = error.errorCode;
  sendJson(res, recorded, error.status, [{ message: error.message, errorCode: error.errorCode }]);
};

/** An OAuth error: `{ error, error_description }`. */
export const oauthError = (
  res: ServerResponse,
  recorded: RecordedSalesforceRequest,
  status: number,
  error: string,
  description: string,
) => {
  recorded.errorCode = error;
  sendJson(res, recorded, status, { error, error_description: description });
};

export const randomAlnum = (length: number) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (b) => alphabet[b % alphabet.length]).join('');
};

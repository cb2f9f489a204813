import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SalesforceApiError } from './errors';
import { sendError, type RecordedSalesforceRequest } from './http';

/** Faults a test queues: a hang, an error in Salesforce's REST shape, an HTML error page. */

export type SalesforceFault = {
  /** Which requests it hits: the REST API (default) or the token endpoint. */
  on?: 'api' | 'token';
  /** Only a request whose path holds this (`/composite/sobjects`, `/batches`…); any when left out. */
  path?: string;
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

/** Answers the request as the fault says (a hang answers nothing). */
export function applyFault(fault: SalesforceFault, res: ServerResponse, recorded: RecordedSalesforceRequest) {
  if (fault.kind === 'hang') return;
  if (fault.kind === 'html') {
    recorded.status = fault.status;
    res.writeHead(fault.status, { 'content-type': 'text/html' });
    res.end(`<html><head><title>Error ${fault.status}</title></head><body>Service unavailable</body></html>`);
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
}

import type { Connection } from '@jsforce/jsforce-node';
import { importPKCS8, SignJWT } from 'jose';
import type { SalesforceConfig } from '../../../config/crm';
import type { Log } from '../../../lib/logger';
import { CrmError } from '../crm';
import { withDeadline } from './jsforce-deadline';

/**
 * The connection to the org: signed in as an External Client App with the client-credentials
 * flow (or the JWT bearer flow) on the first call. A token that expires (401 INVALID_SESSION_ID)
 * is replaced by running the grant again, and the request is sent once more. Every call has the
 * deadline GEM_CRM_TIMEOUT_MS; jsforce's own retries are off (a failure is shown at once, the
 * person retries). Failures become CrmError: 'auth' (the org refused GEM's credentials),
 * 'rejected' (a query the org refuses: a mapping field that does not exist, say), 'timeout',
 * 'unavailable' (anything else).
 */

export type SfRecord = Record<string, unknown>;

export type SalesforceConnection = {
  /** One port call: its requests under one deadline, failures as CrmError. */
  call<T>(what: string, run: (conn: Connection) => Promise<T>): Promise<T>;
};

/** A refresh within this long of the last one fails instead: a token that never works is an auth failure. */
const REFRESH_MIN_INTERVAL_MS = 2_000;

/** Salesforce errors that mean the query itself is refused: configuration, not an outage. */
const rejectedCodes = new Set([
  'INVALID_FIELD',
  'MALFORMED_QUERY',
  'INVALID_TYPE',
  'INVALID_QUERY_FILTER_OPERATOR',
  'INVALID_QUERY_LOCATOR',
  'INVALID_OPERATION',
  'NOT_FOUND',
  'INSUFFICIENT_ACCESS',
  'INVALID_FIELD_FOR_INSERT_UPDATE',
]);
const authCodes = new Set([
  'invalid_client',
  'invalid_client_id',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'inactive_user',
  'inactive_org',
  'INVALID_SESSION_ID',
  'INVALID_AUTH_HEADER',
  'API_DISABLED_FOR_ORG',
]);

/** A short, secret-free account of an error for logs and CrmError messages. */
export function describeError(err: unknown): { code: string; message: string } {
  const e = err as { name?: string; errorCode?: string; message?: string };
  const code = e?.errorCode ?? e?.name ?? 'Error';
  const message = String(e?.message ?? err)
    .replace(/\s+/g, ' ')
    .slice(0, 300);
  return { code, message };
}

export function toCrmError(err: unknown, what: string): CrmError {
  if (err instanceof CrmError) return err;
  const { code, message } = describeError(err);
  const text = `${what}: ${code}: ${message}`;
  if (code === 'AbortError' || code === 'TimeoutError') return new CrmError('timeout', text, { cause: err });
  if (authCodes.has(code) || message.startsWith('Unable to refresh session'))
    return new CrmError('auth', text, { cause: err });
  if (rejectedCodes.has(code)) return new CrmError('rejected', text, { cause: err });
  return new CrmError('unavailable', text, { cause: err });
}

/** The JWT bearer assertion's audience: Salesforce's login host for its own domains, the login URL otherwise. */
function jwtAudience(loginUrl: string): string {
  const host = new URL(loginUrl).hostname;
  if (host.endsWith('.sandbox.my.salesforce.com') || host === 'test.salesforce.com')
    return 'https://test.salesforce.com';
  if (host.endsWith('.salesforce.com') || host.endsWith('.force.com')) return 'https://login.salesforce.com';
  return new URL(loginUrl).origin;
}

/** Signs the connection in: the client-credentials grant, or a JWT bearer assertion signed with the key. */
async function grant(config: SalesforceConfig, conn: Connection) {
  if (config.auth.flow === 'client-credentials') {
    return conn.authorize({ grant_type: 'client_credentials' });
  }
  const key = await importPKCS8(config.auth.privateKey, 'RS256');
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuer(config.clientId)
    .setSubject(config.auth.username)
    .setAudience(jwtAudience(config.loginUrl))
    .setExpirationTime('3m')
    .sign(key);
  return conn.authorize({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
}

/**
 * A signed-in jsforce connection whose expired token is replaced by the grant again.
 * `refreshed.at` is when the adapter last did so.
 */
async function openConnection(
  config: SalesforceConfig,
  { log, timeoutMs }: { log: Pick<Log, 'debug'>; timeoutMs: number },
  refreshed: { at: number },
): Promise<Connection> {
  // Loaded on the first call: a GEM on the embedded CRM never holds jsforce (7.6 MB of
  // memory, bench/memory.md).
  const jsforce = await import('@jsforce/jsforce-node');
  const conn: Connection = new jsforce.Connection({
    loginUrl: config.loginUrl,
    version: config.apiVersion,
    oauth2: {
      loginUrl: config.loginUrl,
      clientId: config.clientId,
      ...(config.auth.flow === 'client-credentials' ? { clientSecret: config.auth.clientSecret } : {}),
    },
    // No refresh token comes with these grants: a fresh token is the grant again.
    refreshFn: (c, callback) => {
      if (Date.now() - refreshed.at < REFRESH_MIN_INTERVAL_MS) {
        callback(new Error('a fresh token was refused too (INVALID_SESSION_ID)'));
        return;
      }
      refreshed.at = Date.now();
      log.debug({ crm: 'salesforce' }, 'Salesforce session expired; signing in again');
      grant(config, c as Connection).then(
        () => callback(null, c.accessToken ?? undefined),
        (err: unknown) => callback(err as Error),
      );
    },
  });
  withDeadline(conn, timeoutMs);
  withDeadline(conn.oauth2, timeoutMs);
  await grant(config, conn);
  return conn;
}

export function connectSalesforce(
  config: SalesforceConfig,
  options: { log: Pick<Log, 'debug'>; timeoutMs: number },
): SalesforceConnection {
  const { timeoutMs } = options;
  let connecting: Promise<Connection> | undefined;
  const refreshed = { at: 0 };

  /** The one connection, opened on the first call; a failed sign-in is tried again by the next. */
  const connect = () => {
    connecting ??= openConnection(config, options, refreshed);
    connecting.catch(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    async call(what, run) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new CrmError('timeout', `${what}: no answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      try {
        return await Promise.race([connect().then(run), deadline]);
      } catch (err) {
        throw toCrmError(err, what);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** A query's records, following nextRecordsUrl up to `max`; `complete` when none were left unread. */
export async function records(conn: Connection, soql: string, max: number) {
  const result = await conn.query<SfRecord>(soql).autoFetch(true).maxFetch(max);
  return { records: result.records, complete: result.records.length >= result.totalSize };
}

/** A `SELECT COUNT()` query's count. */
export const countOf = async (conn: Connection, soql: string) => (await conn.query(soql)).totalSize;

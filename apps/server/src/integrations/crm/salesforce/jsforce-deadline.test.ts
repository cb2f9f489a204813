import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Connection } from '@jsforce/jsforce-node';
import { startSalesforceServer, type SalesforceServer } from '@gem/test-servers/salesforce-server';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { withDeadline } from './jsforce-deadline';

// jsforce offers no public setting for a request's timeout or retries, so the adapter wraps the
// private `_transport` of the connection and of its OAuth client (jsforce-deadline.ts), and
// jsforce is pinned to one version (decision 024). These tests fail when the pin is loosened or
// the private shape the wrapper relies on changes: then read jsforce's transport and request code
// again before moving the pin.

const require = createRequire(import.meta.url);

it('pins jsforce to the exact version installed', () => {
  const server = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const pinned = server.dependencies['@jsforce/jsforce-node'];
  expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  const installed = (require('@jsforce/jsforce-node/package.json') as { version: string }).version;
  expect(installed).toBe(pinned);
});

describe.runIf(inject('dbKind') === 'pglite')('jsforce’s private transport', () => {
  let sf: SalesforceServer;
  beforeAll(async () => {
    sf = await startSalesforceServer({ data: { Campaign: [] } });
  });
  afterAll(() => sf.close());
  beforeEach(() => sf.reset());

  const connection = (timeoutMs: number) => {
    const conn = new Connection({
      loginUrl: sf.url,
      version: '65.0',
      oauth2: { loginUrl: sf.url, clientId: sf.clientId, clientSecret: sf.clientSecret },
    });
    withDeadline(conn, timeoutMs);
    withDeadline(conn.oauth2, timeoutMs);
    return conn;
  };
  const signIn = (conn: Connection) => conn.authorize({ grant_type: 'client_credentials' });
  const rejection = (promise: PromiseLike<unknown>) =>
    Promise.resolve(promise).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
  const requestsTo = (path: string) => sf.requests.filter((r) => r.path.startsWith(path)).length;

  it('is where a connection and its OAuth client send their requests', () => {
    const conn = new Connection({ loginUrl: sf.url, oauth2: { loginUrl: sf.url, clientId: sf.clientId } });
    expect(typeof conn._transport.httpRequest).toBe('function');
    expect(typeof conn.oauth2._transport.httpRequest).toBe('function');
  });

  it('takes the retries: a 503 to the token endpoint and to a query is asked once', async () => {
    const conn = connection(5_000);
    sf.fail({ kind: 'error', status: 503, on: 'token' });
    expect(await rejection(signIn(conn))).toBeInstanceOf(Error);
    expect(requestsTo('/services/oauth2/token')).toBe(1);

    await signIn(conn);
    sf.fail({ kind: 'error', status: 503 });
    expect(await rejection(conn.query('SELECT Id FROM Campaign'))).toBeInstanceOf(Error);
    expect(requestsTo('/services/data/')).toBe(1);
    expect((await conn.query('SELECT Id FROM Campaign')).totalSize).toBe(0);
  });

  it('takes the timeout: a request that hangs is aborted (jsforce’s own default waits 30 minutes)', async () => {
    const conn = connection(200);
    await signIn(conn);
    sf.fail({ kind: 'hang' });
    expect((await rejection(conn.query('SELECT Id FROM Campaign')))?.name).toBe('AbortError');
    sf.fail({ kind: 'hang', on: 'token' });
    expect((await rejection(signIn(conn)))?.name).toBe('AbortError');
  });
});

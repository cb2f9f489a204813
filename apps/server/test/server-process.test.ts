import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Browser, openSignInPage, submitSignIn, type AuthConfig } from './embedded-sign-in';
import { captureProcessLog } from './log-capture';

// The real process entry (src/server.ts), started as `npm start` would start it.
const serverDir = path.resolve(import.meta.dirname, '..');
const dataRoot = mkdtempSync(path.join(tmpdir(), 'gem-process-'));
afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    // Production refuses the embedded provider unless asked for it explicitly.
    env: { PATH: process.env.PATH, NODE_ENV: 'production', GEM_EMBEDDED_IDP: 'true', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      // The real server's log lines go through the suite's scan too (log-scan.ts).
      captureProcessLog(stdout);
      resolve(code);
    }),
  );
  return { child, exited, output: () => ({ stdout, stderr }) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

describe.runIf(inject('dbKind') === 'pglite')('the server process', () => {
  it('refuses to start on bad settings and lists every bad one', async () => {
    const server = startServer({ PORT: 'eighty', GEM_TRUST_PROXY: 'maybe', GEM_DATA_DIR: dataRoot });
    expect(await server.exited).toBe(1);
    const { stderr } = server.output();
    expect(stderr).toContain('GEM cannot start');
    expect(stderr).toContain('PORT:');
    expect(stderr).toContain('GEM_TRUST_PROXY:');
  });

  it('starts on an empty data folder, answers ready, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const server = startServer({
      PORT: String(port),
      GEM_HOST: '127.0.0.1',
      GEM_DATA_DIR: path.join(dataRoot, 'fresh', 'data'),
      GEM_METRICS_PORT: String(metricsPort),
    });
    const deadline = Date.now() + 25_000;
    let ready = false;
    while (!ready && Date.now() < deadline) {
      ready = await fetch(`http://127.0.0.1:${port}/api/ready`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (!ready) await new Promise((r) => setTimeout(r, 200));
    }
    expect(ready, server.output().stderr).toBe(true);

    // A failed sign-in and a forged token: logged by reason, never with the e-mail, password or token.
    const origin = `http://127.0.0.1:${port}`;
    const config = (await (await fetch(`${origin}/api/identity/auth-config`)).json()) as AuthConfig;
    const browser = new Browser(origin);
    const page = await openSignInPage(browser, config);
    expect((await submitSignIn(browser, page, 'mallory@example.com', 'hunter2-secret')).res.status).toBe(401);
    const forged = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0.c2lnbmF0dXJl';
    await fetch(`${origin}/api/identity/check-app-access`, {
      headers: { authorization: `Bearer ${forged}` },
    });

    // The metrics, on their own port on 127.0.0.1 (GEM_METRICS_HOST's default), with Node's own.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(
      /^gem_http_request_duration_seconds_count\{method="GET",route="\/api\/ready",status="200"\} \d+$/m,
    );
    expect(metrics).toContain('process_resident_memory_bytes');
    expect(metrics).toContain('gem_db_info{kind="pglite"} 1');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const { stdout } = server.output();
    const metricsLine = stdout.split('\n').find((l) => l.includes('metrics served at /metrics'));
    expect(JSON.parse(metricsLine ?? '{}')).toMatchObject({ address: '127.0.0.1', port: metricsPort });
    expect(stdout).toContain('"msg":"stopped"');
    // Logs are JSON lines with a request id, and never carry headers.
    const requestLine = stdout.split('\n').find((l) => l.includes('/api/ready'));
    expect(JSON.parse(requestLine ?? '{}').reqId).toBeTruthy();
    expect(stdout).not.toContain('user-agent');
    expect(stdout).toContain('"reason":"invalid_credentials"');
    expect(stdout).toContain('"reason":"signature_invalid"');
    for (const secret of ['mallory', 'hunter2', forged.split('.')[1]!]) expect(stdout).not.toContain(secret);
  }, 40_000);
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapture, scanCapture, scanLogLines, type LogLine } from './log-scan';

/** The scan the suite's logs go through at the end of a run (global-setup.ts): it must catch each kind of leak. */

const line = (text: string, n = 1): LogLine => ({ file: 'app.log', line: n, text });
const clean = [
  '{"level":30,"reqId":"5b1c","method":"GET","path":"/api/markets/technology","statusCode":200,"msg":"request completed"}',
  '{"level":40,"module":"llm","provider":"openai-compatible","status":500,"attempt":1,"msg":"AI service call failed; retrying"}',
  '{"level":50,"err":{"type":"Error","stack":"Error: x\\n    at file:///app/node_modules/@electric-sql/pglite/dist/index.js:1:1"},"msg":"failed"}',
  '{"level":30,"msg":"Server listening at http://127.0.0.1:43685"}',
].map((text, i) => line(text, i + 1));

describe('the log scan', () => {
  it('finds nothing in lines without secrets', () => {
    expect(scanLogLines(clean, [{ kind: 'text', value: 'Napisz krótki artykuł na bloga.' }])).toEqual([]);
  });

  it('finds JWTs, bearer tokens and e-mail addresses by their shape', () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0.c2lnbmF0dXJl';
    const found = scanLogLines(
      [
        ...clean,
        line(`{"msg":"token","t":"${jwt}"}`, 10),
        line('{"msg":"header","authorization":"Bearer abcdefgh12345678"}', 11),
        line('{"msg":"sign-in failed","user":"ann.kowalska@example.com"}', 12),
      ],
      [],
    );
    expect(found.map((f) => [f.what, f.line])).toEqual([
      ['a JWT', 10],
      ['a bearer token', 11],
      ['an e-mail address', 12],
    ]);
  });

  it('finds the values the tests sent: passwords, opaque tokens, prompts (also JSON-escaped), answers', () => {
    const prompt = 'Napisz "krótki" artykuł\no cyfryzacji.';
    const found = scanLogLines(
      [
        ...clean,
        line('{"msg":"x","detail":"hunter2-secret was wrong"}', 20),
        line('{"msg":"x","t":"opaque-refresh-token-123"}', 21),
        line(`{"msg":"x","input":${JSON.stringify(prompt)}}`, 22),
        line('{"msg":"x","out":"Przeczytaj nasz nowy raport o rynku"}', 23),
      ],
      [
        { kind: 'password', value: 'hunter2-secret' },
        { kind: 'token', value: 'opaque-refresh-token-123' },
        { kind: 'text', value: prompt },
        { kind: 'answer', value: 'Przeczytaj nasz nowy raport o rynku' },
        // Too short to mean anything: not looked for.
        { kind: 'password', value: 'x' },
      ],
    );
    expect(found.map((f) => [f.what.split(' (')[0], f.line])).toEqual([
      ['a password a test sent', 20],
      ['a token a test sent', 21],
      ['a text a test sent', 22],
      ['a answer a test sent', 23],
    ]);
  });

  it('fails a run whose logs hold a secret, and one whose capture is empty', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gem-log-scan-'));
    try {
      writeFileSync(
        path.join(dir, '1.log'),
        [
          '{"msg":"test app built"}',
          ...clean.map((l) => l.text),
          '{"msg":"x","p":"correct-horse-battery"}',
          '',
        ].join('\n'),
      );
      writeFileSync(
        path.join(dir, '1.secrets'),
        `${JSON.stringify({ kind: 'password', value: 'correct-horse-battery' })}\n`,
      );
      expect(readCapture(dir)).toMatchObject({ apps: 1, secrets: [{ kind: 'password' }] });
      expect(() => scanCapture(dir, 'test')).toThrow(/a password a test sent .* in 1\.log:6/);

      writeFileSync(path.join(dir, '1.log'), '{"msg":"test app built"}\n');
      rmSync(path.join(dir, '1.secrets'));
      expect(() => scanCapture(dir, 'test')).toThrow(/1 test apps wrote only 1 log lines/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

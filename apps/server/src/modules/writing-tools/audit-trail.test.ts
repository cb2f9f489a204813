import { writingToolInputSchemas, writingToolNames, writingToolPaths } from '@gem/contracts/writing-tools';
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorOf,
  parseEvents,
  PERMITTED_DOMAIN,
  sampleInputs,
  startAiHarness,
  type AiHarness,
} from '../../../test/ai-harness';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import type { App } from '../../app';
import { generations, users } from '../../db/schema/index';
import { loggerOptions } from '../../lib/logger';

/**
 * Every AI call is recorded, or the request fails visibly. Text the database cannot store is
 * refused before any model is called; a record the database refuses (a trigger on the real
 * database, PGlite or PostgreSQL) turns the answer into an error, logged at error level.
 */

const REFUSED_MARKER = 'the-database-refuses-this-record';

let h: AiHarness;
let app: App;
const logs: Array<{ level: number; msg: string; tool?: string }> = [];

beforeAll(async () => {
  h = await startAiHarness();
  const base = testConfig();
  const config = testConfig({
    log: { level: 'info', pretty: false },
    auth: externalAuth(h.issuer.issuer),
    access: { ...base.access, allowedDomains: [PERMITTED_DOMAIN] },
    ai: {
      ...base.ai,
      service: {
        provider: 'openai-compatible',
        model: 'gem-test-model',
        baseUrl: h.ai.url,
        apiKey: 'test-key',
      },
      timeoutMs: 5_000,
      retryBaseDelayMs: 10,
      limits: { perMinute: 1_000, concurrent: 50 },
    },
  });
  // The app's own logger options, writing into `logs`.
  const logger = pino(loggerOptions(config), { write: (line: string) => void logs.push(JSON.parse(line)) });
  app = await buildTestApp({ config, database: h.database, logger });
  await app.ready();

  await h.database.db.execute(
    sql.raw(`create function gem_test_refuse_record() returns trigger language plpgsql as $$
      begin
        if new.input::text like '%${REFUSED_MARKER}%' then
          raise exception 'the test database refuses this record';
        end if;
        return new;
      end $$`),
  );
  await h.database.db.execute(
    sql.raw(`create trigger gem_test_refuse_record before insert on generations
      for each row execute function gem_test_refuse_record()`),
  );
});

afterAll(async () => {
  await app?.close();
  await h?.close();
});

const post = async (url: string, user: string, payload: object) =>
  app.inject({ method: 'POST', url, headers: { authorization: await h.bearer(user) }, payload });

async function recordsOf(user: string) {
  const claims = accessClaims(user, PERMITTED_DOMAIN);
  const [row] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.subject, claims.sub));
  if (!row) return [];
  return h.database.db.select().from(generations).where(eq(generations.userId, row.id));
}

const errorLogs = () => logs.filter((l) => l.level >= 50 && l.msg === 'could not record an AI call');

describe('text the database cannot store', () => {
  const endpoints = [
    ...writingToolNames.map((name) => ({
      url: writingToolPaths.generate(name),
      valid: sampleInputs[name] as Record<string, unknown>,
      fields: Object.entries(writingToolInputSchemas[name].shape)
        .filter(([, schema]) => schema.def.type === 'string')
        .map(([field]) => field),
    })),
    { url: writingToolPaths.generatePrompt, valid: { userPrompt: 'Napisz wiersz.' }, fields: ['userPrompt'] },
    {
      url: writingToolPaths.summarizePrompt,
      valid: { documentText: 'Długi tekst.' },
      fields: ['documentText'],
    },
  ];

  it('is refused with a 400 naming the field, on every text field of every AI endpoint, before any model call', async () => {
    h.ai.reset();
    let checked = 0;
    for (const { url, valid, fields } of endpoints) {
      for (const field of fields) {
        for (const bad of ['Raport\u0000 roczny', 'Raport 🚀 i pół emoji \ud83d', '\udc00']) {
          const res = await post(url, 'careful', { ...valid, [field]: bad });
          expect(res.statusCode, `${url} ${field}`).toBe(400);
          const error = errorOf(res);
          expect(error.code).toBe('validation_failed');
          expect(error.issues).toEqual([
            {
              path: `body.${field}`,
              message: expect.stringMatching(
                /^The \w+ contains characters that cannot be stored \(a NUL character or a broken emoji\)\.$/,
              ),
            },
          ]);
          checked += 1;
        }
      }
    }
    expect(checked).toBe(30);
    expect(h.ai.requests).toHaveLength(0);
    expect(await recordsOf('careful')).toEqual([]);
  });

  it('still takes whole emoji, accents and other control characters', async () => {
    h.ai.reset();
    const res = await post(writingToolPaths.generate('teaser-generator'), 'careful', {
      content: 'Zażółć 👨‍👩‍👧‍👦 🇵🇱 tab\tand\u0001bell',
    });
    expect(res.statusCode).toBe(200);
    expect(parseEvents(res.body).at(-1)?.type).toBe('final');
    expect(await recordsOf('careful')).toHaveLength(1);
  });
});

describe('a call that cannot be recorded', () => {
  it('ends a stream with an error event instead of the final answer, logged at error level', async () => {
    h.ai.reset();
    h.ai.enqueue({ kind: 'text', text: 'Krótki teaser, który nie zostanie zapisany.' });
    logs.length = 0;
    const res = await post(writingToolPaths.generate('teaser-generator'), 'audited', {
      content: `Treść ${REFUSED_MARKER}`,
    });
    expect(res.statusCode).toBe(200);
    const events = parseEvents(res.body);
    expect(events.some((e) => e.type === 'final')).toBe(false);
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' },
    });
    expect(errorLogs()).toEqual([expect.objectContaining({ tool: 'teaser-generator' })]);
    expect(await recordsOf('audited')).toEqual([]);
  });

  it('answers a whole-answer call with a 500 in the error shape instead of the answer', async () => {
    for (const [url, payload] of [
      [writingToolPaths.generatePrompt, { userPrompt: `Polecenie ${REFUSED_MARKER}` }],
      [writingToolPaths.summarizePrompt, { documentText: `Dokument ${REFUSED_MARKER}` }],
    ] as const) {
      h.ai.reset();
      h.ai.enqueue({ kind: 'text', text: 'Odpowiedź, której nikt nie zobaczy.' });
      logs.length = 0;
      const res = await post(url, 'audited', payload);
      expect(res.statusCode, url).toBe(500);
      expect(errorOf(res)).toMatchObject({ code: 'internal_error' });
      expect(res.body).not.toContain('nikt nie zobaczy');
      expect(errorLogs()).toHaveLength(1);
    }
    expect(await recordsOf('audited')).toEqual([]);
  });

  it('fails a model failure that cannot be recorded as an internal error too', async () => {
    h.ai.reset();
    h.ai.enqueue({ kind: 'status', status: 400, message: 'bad request upstream' });
    logs.length = 0;
    const res = await post(writingToolPaths.generate('paid-ads'), 'audited', {
      content: `Treść ${REFUSED_MARKER}`,
    });
    expect(res.statusCode).toBe(500);
    expect(errorOf(res).code).toBe('internal_error');
    expect(errorLogs()).toHaveLength(1);
  });

  it('stores and shows an answer with a NUL character or half an emoji, those replaced', async () => {
    h.ai.reset();
    h.ai.enqueue({ kind: 'text', text: 'Teaser\u0000 z pół emoji \ud83d i całym 🚀.' });
    const res = await post(writingToolPaths.generate('teaser-generator'), 'odd-answers', {
      content: 'Treść',
    });
    const final = parseEvents(res.body).at(-1);
    expect(final).toMatchObject({
      type: 'final',
      output: { text: 'Teaser\ufffd z pół emoji \ufffd i całym 🚀.' },
    });
    const [record] = await recordsOf('odd-answers');
    expect(record?.output).toMatchObject({ text: 'Teaser\ufffd z pół emoji \ufffd i całym 🚀.' });

    h.ai.enqueue({ kind: 'text', text: 'Odpowiedź\u0000.' });
    const whole = await post(writingToolPaths.generatePrompt, 'odd-answers', { userPrompt: 'Polecenie' });
    expect(whole.statusCode).toBe(200);
    expect(whole.json()).toEqual({ prediction: 'Odpowiedź\ufffd.' });
    expect(await recordsOf('odd-answers')).toHaveLength(2);
  });

  it('streams, stores and shows an answer without bidirectional override characters', async () => {
    h.ai.reset();
    h.ai.enqueue({ kind: 'text', text: 'Plik \u202Egpj.exe\u202C i \u2066izolat\u2069.' });
    const res = await post(writingToolPaths.generate('teaser-generator'), 'bidi-answers', {
      content: 'Treść',
    });
    const events = parseEvents(res.body);
    const streamed = events.flatMap((event) => (event.type === 'delta' ? [event.text] : [])).join('');
    expect(streamed).toBe('Plik gpj.exe i izolat.');
    expect(events.at(-1)).toMatchObject({ type: 'final', output: { text: 'Plik gpj.exe i izolat.' } });
    const [record] = await recordsOf('bidi-answers');
    expect(record?.output).toMatchObject({ text: 'Plik gpj.exe i izolat.' });

    h.ai.enqueue({ kind: 'text', text: '\u202Eodwrócone' });
    const whole = await post(writingToolPaths.generatePrompt, 'bidi-answers', { userPrompt: 'Polecenie' });
    expect(whole.json()).toEqual({ prediction: 'odwrócone' });
  });

  it('records the same call normally once the content is acceptable', async () => {
    h.ai.reset();
    h.ai.enqueue({ kind: 'text', text: 'Zapisany teaser.' });
    const res = await post(writingToolPaths.generate('teaser-generator'), 'audited', { content: 'Treść' });
    expect(parseEvents(res.body).at(-1)?.type).toBe('final');
    expect(await recordsOf('audited')).toHaveLength(1);
  });
});

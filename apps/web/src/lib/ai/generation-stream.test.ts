// @vitest-environment node
/// <reference types="node" />
import type { GenerationEvent } from '@gem/contracts/writing-tools';
import { describe, expect, it } from 'vitest';

import { ApiError, NetworkError } from '@/lib/api-client';
import { BrokenStreamError } from '@/lib/ndjson';
import { deltas, final, gate, serveApi } from '@/testing/api-server';

import { GenerationFailedError, streamGeneration } from './generation-stream';

const server = serveApi();

describe('streamGeneration against a server speaking the contract', () => {
  it('POSTs the input and hands over every event in order, resolving with the final output', async () => {
    server.reply({
      kind: 'stream',
      events: [
        ...deltas('Pierwsza wersja '),
        { type: 'restart' },
        ...deltas('Krótsza.'),
        final('Krótsza.', { shortened: true }),
      ],
    });
    const seen: GenerationEvent[] = [];
    const result = await streamGeneration(
      'article',
      { content: 'Treść', task: 'Napisz' },
      { onEvent: (e) => seen.push(e) },
    );
    expect(server.state.calls).toEqual([
      { name: 'article', body: { content: 'Treść', task: 'Napisz' }, authorization: undefined },
    ]);
    expect(seen.map((e) => e.type)).toEqual(['delta', 'delta', 'restart', 'delta', 'final']);
    expect(result.output).toEqual({ text: 'Krótsza.', shortened: true, truncated: false });
  });

  it('delivers each event as it arrives, not when the stream ends', async () => {
    const hold = gate();
    server.reply({
      kind: 'stream',
      events: [{ type: 'delta', text: 'Już ' }, { until: hold.until }, final('Już jest.')],
    });
    let firstAt = 0;
    const pending = streamGeneration(
      'teaser-generator',
      { content: 'x' },
      {
        onEvent: (e) => {
          if (e.type === 'delta') firstAt = Date.now();
        },
      },
    );
    await expect.poll(() => firstAt).toBeGreaterThan(0);
    hold.open();
    await expect(pending).resolves.toMatchObject({ output: { text: 'Już jest.' } });
  });

  it('rejects with the error event the server sent after the stream began', async () => {
    server.reply({
      kind: 'stream',
      events: [
        { type: 'delta', text: 'Po' },
        { type: 'error', error: { code: 'ai_unavailable', message: 'Timed out.' } },
      ],
    });
    const error = await streamGeneration('paid-ads', { content: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenerationFailedError);
    expect(error).toMatchObject({ code: 'ai_unavailable', message: 'Timed out.' });
  });

  it('carries the wait an error event asks for', async () => {
    server.reply({
      kind: 'stream',
      events: [{ type: 'error', error: { code: 'ai_busy', message: 'Busy.', retryAfterSeconds: 12 } }],
    });
    const error = await streamGeneration('paid-ads', { content: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GenerationFailedError);
    expect(error).toMatchObject({ code: 'ai_busy', retryAfterSeconds: 12 });
  });

  it('says the stream is broken when it ends without a final event', async () => {
    server.reply({ kind: 'stream', events: deltas('Urwany tekst') });
    await expect(streamGeneration('paid-ads', { content: 'x' })).rejects.toBeInstanceOf(BrokenStreamError);
  });

  it('fails cleanly when the connection drops mid-stream', async () => {
    server.reply({ kind: 'drop', events: deltas('Urwany ') });
    const error = await streamGeneration('teaser-generator', { content: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ApiError);
  });

  it('skips event types it does not know, but not a malformed known one', async () => {
    server.reply({ kind: 'stream', events: [{ raw: '{"type":"progress","step":2}' }, final('OK')] });
    await expect(streamGeneration('article', { content: 'a', task: 'b' })).resolves.toMatchObject({
      output: { text: 'OK' },
    });
    server.reply({ kind: 'stream', events: [{ raw: '{"type":"delta","text":5}' }, final('OK')] });
    await expect(streamGeneration('article', { content: 'a', task: 'b' })).rejects.toBeInstanceOf(
      BrokenStreamError,
    );
  });

  it('rejects with the ApiError when the server refuses before streaming (503 ai_not_configured)', async () => {
    server.reply({ kind: 'error', status: 503, code: 'ai_not_configured', message: 'No AI service.' });
    const error = await streamGeneration('summarize', { documentText: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'ai_not_configured' });
  });

  it('carries Retry-After on a 429', async () => {
    server.reply({ kind: 'error', status: 429, code: 'too_many_requests', headers: { 'retry-after': '17' } });
    const error = await streamGeneration('summarize', { documentText: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'too_many_requests', retryAfterSeconds: 17 });
  });

  it('carries Retry-After on a 503 ai_busy', async () => {
    server.reply({ kind: 'error', status: 503, code: 'ai_busy', headers: { 'retry-after': '8' } });
    const error = await streamGeneration('summarize', { documentText: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: 'ai_busy', retryAfterSeconds: 8 });
  });

  it('aborts: the promise rejects as an abort and the server sees the connection close', async () => {
    server.reply({ kind: 'hang' });
    const controller = new AbortController();
    const pending = streamGeneration('article', { content: 'a', task: 'b' }, { signal: controller.signal });
    await expect.poll(() => server.state.calls.length).toBe(1);
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(NetworkError);
    expect((error as Error).name).toBe('AbortError');
    await expect.poll(() => server.state.closed.length).toBe(1);
  });

  it('stops reading (and lets the server know) once the final event is in', async () => {
    const hold = gate();
    server.reply({
      kind: 'stream',
      events: [final('Gotowe.'), { until: hold.until }, { type: 'delta', text: 'za dużo' }],
    });
    await expect(streamGeneration('teaser-generator', { content: 'x' })).resolves.toMatchObject({
      output: { text: 'Gotowe.' },
    });
    await expect.poll(() => server.state.closed.length).toBe(1);
    hold.open();
  });
});

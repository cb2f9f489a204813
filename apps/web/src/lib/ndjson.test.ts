// @vitest-environment node
import { describe, expect, it } from 'vitest';

import { BrokenStreamError, readNdjson } from './ndjson';

function bodyOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>) {
  const out: unknown[] = [];
  for await (const line of readNdjson(body)) out.push(line);
  return out;
}

describe('readNdjson', () => {
  it('parses lines split across chunks, blank lines skipped, a last line without newline kept', async () => {
    const lines = await collect(bodyOf(['{"a":', '1}\n\n{"b"', ':2}\r\n', '{"c":3}']));
    expect(lines).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
  });

  it('puts a multi-byte character split across chunks back together', async () => {
    const bytes = new TextEncoder().encode('{"text":"Zażółć 🚀"}\n');
    const cut = 12; // inside "ż"
    const lines = await collect(
      bodyOf([bytes.slice(0, cut), bytes.slice(cut, cut + 12), bytes.slice(cut + 12)]),
    );
    expect(lines).toEqual([{ text: 'Zażółć 🚀' }]);
  });

  it('says the stream is broken on a line that is not JSON', async () => {
    await expect(collect(bodyOf(['{"ok":1}\n<html>\n']))).rejects.toBeInstanceOf(BrokenStreamError);
  });

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"n":1}\n{"n":2}\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const line of readNdjson(body)) {
      expect(line).toEqual({ n: 1 });
      break;
    }
    expect(cancelled).toBe(true);
  });
});

import {
  generationEventSchema,
  generatorPaths,
  type GenerationEvent,
  type GenerationOutput,
  type GeneratorInput,
  type GeneratorName,
} from '@gem/contracts/generators';

import { api, type ApiClient } from '@/lib/api-client';

/** The server reported a failure after the stream began (an `error` event). */
export class GenerationFailedError extends Error {
  override readonly name = 'GenerationFailedError';
  readonly code: string;

  constructor(error: { code: string; message: string }) {
    super(error.message);
    this.code = error.code;
  }
}

/** The stream ended, or carried a line that is not a GenerationEvent, before a final answer. */
export class BrokenStreamError extends Error {
  override readonly name = 'BrokenStreamError';
}

/**
 * The lines of an NDJSON body, parsed, as they arrive. A line split across chunks (or a
 * multi-byte character split across chunks) is put back together first.
 */
export async function* readNdjson(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<unknown, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        buffer += decoder.decode();
      } else {
        buffer += decoder.decode(value, { stream: true });
      }
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) yield parseLine(line);
        newline = buffer.indexOf('\n');
      }
      if (finished) break;
    }
    const rest = buffer.trim();
    if (rest) yield parseLine(rest);
  } finally {
    // The consumer stopped early (a final event, an error, an abort): let the server know.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

const knownTypes: ReadonlySet<unknown> = new Set<GenerationEvent['type']>([
  'delta',
  'restart',
  'final',
  'error',
]);

function isKnownEvent(line: unknown): boolean {
  return typeof line === 'object' && line !== null && knownTypes.has((line as { type?: unknown }).type);
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new BrokenStreamError('The server sent a line that is not JSON.', { cause: error });
  }
}

export type StreamGenerationOptions = {
  signal?: AbortSignal;
  /** Every event as it arrives, `final` included: the page shows text as it is written. */
  onEvent?: (event: GenerationEvent) => void;
  /** Defaults to the app's one HTTP client. */
  client?: Pick<ApiClient, 'stream'>;
};

/**
 * POSTs a tool's input and reads the NDJSON GenerationEvent stream it answers with. Resolves
 * with the final output; rejects with ApiError (the server refused before streaming),
 * GenerationFailedError (an `error` event), BrokenStreamError, NetworkError or an AbortError.
 */
export async function streamGeneration<N extends GeneratorName>(
  name: N,
  input: GeneratorInput<N>,
  { signal, onEvent, client = api }: StreamGenerationOptions = {},
): Promise<{ generationId: string; output: GenerationOutput }> {
  const body = await client.stream(generatorPaths.generate(name), { body: input, signal });
  for await (const line of readNdjson(body)) {
    const parsed = generationEventSchema.safeParse(line);
    if (!parsed.success) {
      // A newer server may add event types; skip those, but a known event must be well formed.
      if (isKnownEvent(line)) throw new BrokenStreamError('The server sent a malformed event.');
      continue;
    }
    const event = parsed.data;
    onEvent?.(event);
    if (event.type === 'final') return { generationId: event.generationId, output: event.output };
    if (event.type === 'error') throw new GenerationFailedError(event.error);
  }
  // A reader that ends because the request was aborted may end quietly; report the abort.
  signal?.throwIfAborted();
  throw new BrokenStreamError('The stream ended before the final answer.');
}

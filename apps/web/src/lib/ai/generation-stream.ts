import {
  generationEventSchema,
  writingToolPaths,
  type GenerationEvent,
  type GenerationOutput,
  type WritingToolInput,
  type WritingToolName,
} from '@gem/contracts/writing-tools';

import { api } from '@/lib/api-client';
import { BrokenStreamError, readNdjson } from '@/lib/ndjson';

/** The server reported a failure after the stream began (an `error` event). */
export class GenerationFailedError extends Error {
  override readonly name = 'GenerationFailedError';
  readonly code: string;
  /** The service asked for a wait before the next try, in seconds. */
  readonly retryAfterSeconds: number | undefined;

  constructor(error: { code: string; message: string; retryAfterSeconds?: number | undefined }) {
    super(error.message);
    this.code = error.code;
    this.retryAfterSeconds = error.retryAfterSeconds;
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

export type StreamGenerationOptions = {
  signal?: AbortSignal;
  /** Every event as it arrives, `final` included: the page shows text as it is written. */
  onEvent?: (event: GenerationEvent) => void;
};

/**
 * POSTs a tool's input and reads the NDJSON GenerationEvent stream it answers with. Resolves
 * with the final output; rejects with ApiError (the server refused before streaming),
 * GenerationFailedError (an `error` event), BrokenStreamError, NetworkError or an AbortError.
 */
export async function streamGeneration<N extends WritingToolName>(
  name: N,
  input: WritingToolInput<N>,
  options: StreamGenerationOptions = {},
): Promise<{ generationId: string; output: GenerationOutput }> {
  return streamGenerationFrom(writingToolPaths.generate(name), input, options);
}

/**
 * The same for any route that answers with the writing tools' GenerationEvent stream (a
 * campaign's asset, made by the channel's tool): `request` is POSTed as JSON.
 */
export async function streamGenerationFrom(
  path: string,
  request: unknown,
  { signal, onEvent }: StreamGenerationOptions = {},
): Promise<{ generationId: string; output: GenerationOutput }> {
  const body = await api.stream(path, { body: request, signal });
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

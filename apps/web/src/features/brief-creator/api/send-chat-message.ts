import {
  briefChatEventSchema,
  briefCreatorPaths,
  type BriefChatEvent,
  type ChatFailure,
  type ChatRequest,
  type ChatResponse,
} from '@gem/contracts/brief-creator';

import { api } from '@/lib/api-client';
import { BrokenStreamError, readNdjson } from '@/lib/ndjson';

const knownTypes: ReadonlySet<unknown> = new Set<BriefChatEvent['type']>([
  'session',
  'delta',
  'restart',
  'final',
  'error',
]);

const isKnownEvent = (line: unknown) =>
  typeof line === 'object' && line !== null && knownTypes.has((line as { type?: unknown }).type);

/** How a turn ended once the stream began: the chat response, or the failure the server reported. */
export type ChatTurnOutcome =
  { ok: true; response: ChatResponse } | { ok: false; sessionId: string | null; error: ChatFailure };

export type SendChatMessageOptions = {
  signal?: AbortSignal;
  /** Every event as it arrives: the session id at once, the answer as it is written. */
  onEvent?: (event: BriefChatEvent) => void;
};

/**
 * POSTs a chat request and reads the NDJSON stream of the turn. Resolves with how the turn ended
 * (a chat response with `error` counts as failed); rejects with ApiError (refused before the
 * stream: 400, 404, 409, 429, 503), BrokenStreamError, NetworkError or an AbortError.
 */
export async function sendChatMessage(
  request: ChatRequest,
  { signal, onEvent }: SendChatMessageOptions = {},
): Promise<ChatTurnOutcome> {
  const body = await api.stream(briefCreatorPaths.chatStream, { body: request, signal });
  for await (const line of readNdjson(body)) {
    const parsed = briefChatEventSchema.safeParse(line);
    if (!parsed.success) {
      // A newer server may add event types; skip those, but a known event must be well formed.
      if (isKnownEvent(line)) throw new BrokenStreamError('The server sent a malformed event.');
      continue;
    }
    const event = parsed.data;
    onEvent?.(event);
    if (event.type === 'final') {
      const { response } = event;
      return response.error
        ? { ok: false, sessionId: response.sessionId, error: response.error }
        : { ok: true, response };
    }
    if (event.type === 'error') return { ok: false, sessionId: event.sessionId, error: event.error };
  }
  signal?.throwIfAborted();
  throw new BrokenStreamError('The stream ended before the final answer.');
}

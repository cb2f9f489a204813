import {
  campaignGenerateAllPath,
  generateAllEventSchema,
  type GenerateAllEvent,
} from '@gem/contracts/campaign-assets';

import { api } from '@/lib/api-client';
import { BrokenStreamError, readNdjson } from '@/lib/ndjson';

/**
 * 'Generate all': every asset the brief's channels call for, generated on the server at most as
 * many at a time as the user's AI limit allows. Calls `onEvent` with each asset's progress as it
 * arrives and resolves with the counts at the end; rejects with ApiError when the server refuses
 * before streaming (a 400 in words for a brief with no channel GEM writes for), BrokenStreamError
 * or an AbortError. The server saves each asset before its `saved` line.
 */
export async function generateAll(
  campaignId: string,
  { signal, onEvent }: { signal?: AbortSignal; onEvent: (event: GenerateAllEvent) => void },
): Promise<{ saved: number; failed: number }> {
  const body = await api.stream(campaignGenerateAllPath(campaignId), { body: {}, signal });
  for await (const line of readNdjson(body)) {
    const parsed = generateAllEventSchema.safeParse(line);
    // A newer server may send more kinds of lines: skip what this page does not know.
    if (!parsed.success) continue;
    onEvent(parsed.data);
    if (parsed.data.type === 'end') return { saved: parsed.data.saved, failed: parsed.data.failed };
  }
  signal?.throwIfAborted();
  throw new BrokenStreamError('The stream ended before every asset was done.');
}

import type { RecordedRequest, ScriptedReply } from '@gem/test-servers/scripted-replies';
import { beforeEach, inject } from 'vitest';

/**
 * The OpenAI-compatible test server that global-setup starts for GEM, scripted over its
 * `/__control` routes: the model's next answers, and what GEM sent it. Forgets both before each test.
 */

async function control(pathname: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${inject('aiControlURL')}/__control${pathname}`, {
    method: body === undefined && pathname === '/requests' ? 'GET' : 'POST',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`test server control ${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Call at the top of a spec file: the script and the recorded requests are reset before each test. */
export function useAiControl() {
  beforeEach(async () => {
    await control('/reset', {});
  });
  return {
    /** Queues the model's next answers. */
    script: (...replies: ScriptedReply[]) => control('/replies', replies),
    /** What GEM sent to the model so far in this test. */
    modelRequests: async () => ((await control('/requests')) as { requests: RecordedRequest[] }).requests,
  };
}

/** Every message of a recorded model request, as one text. */
export const promptOf = (request: RecordedRequest) =>
  (request.body.messages ?? []).map((m) => m.content).join('\n');

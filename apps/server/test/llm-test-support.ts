import { startOpenAiServer, type OpenAiServer } from '@gem/test-servers/openai-server';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/**
 * For a test file of the LLM adapter: the OpenAI-compatible test server, started before its
 * tests, its script reset before each, closed after. Read `.server` inside tests.
 */
export function useOpenAiServer(): { server: OpenAiServer } {
  const holder = {} as { server: OpenAiServer };
  beforeAll(async () => {
    holder.server = await startOpenAiServer();
  });
  afterAll(() => holder.server?.close());
  beforeEach(() => holder.server.reset());
  return holder;
}

/** A sleep that records the waits the adapter asks for and returns at once. */
export function recordedWaits() {
  const waits: number[] = [];
  const sleep = (ms: number) => {
    waits.push(ms);
    return Promise.resolve();
  };
  return { waits, sleep };
}

import { startOpenAiServer } from '@gem/test-servers/openai-server';
import { plausiblePolishReply } from '@gem/test-servers/polish-replies';
import { DEMO_MODEL, type AiConfig } from '../../config';
import type { Log } from '../../lib/logger';
import { createAiSdkTextModel } from './ai-sdk-text-model';
import type { TextModel } from './text-model';

/**
 * The built-in stand-in for an AI service (GEM_AI_PROVIDER=demo, and the embedded defaults):
 * the OpenAI-compatible stand-in server on a loopback port of its own, answering every tool with
 * a plausible Polish example (`npm run ai:test-server` runs the same one), spoken to through the
 * real adapter, so streaming, structured answers and the records work as with a real service.
 * It reports itself as provider `demo` and model `gem-demo-stand-in`, which the pages and the
 * records show. Never in production (config refuses it).
 */
export async function createDemoTextModel({
  ai,
  log,
}: {
  ai: Pick<AiConfig, 'timeoutMs' | 'maxRetries' | 'retryBaseDelayMs' | 'structuredOutput'>;
  log?: Pick<Log, 'warn'>;
}): Promise<{ model: TextModel; close(): Promise<void> }> {
  const server = await startOpenAiServer({
    host: '127.0.0.1',
    port: 0,
    tokenDelayMs: 15,
    model: DEMO_MODEL,
    defaultReply: plausiblePolishReply,
    keepRequests: false,
  });
  const model = createAiSdkTextModel({
    ai,
    service: { provider: 'openai-compatible', model: DEMO_MODEL, baseUrl: server.url, apiKey: undefined },
    log,
  });
  return { model: { ...model, provider: 'demo' }, close: () => server.close() };
}

import { parseArgs } from 'node:util';
import { startOpenAiServer } from './openai-server';
import { plausiblePolishReply } from './polish-replies';

/**
 * `npm run ai:test-server [-- --port 4010 --host 127.0.0.1 --token-delay-ms 40]`: the
 * OpenAI-compatible test server on a fixed port, answering every tool with a plausible Polish
 * reply (the brief creator with a rule-based stand-in; other structured requests with an object
 * made up from their schema), so
 * a person can try GEM's AI tools without an AI service. See README, "AI service".
 */

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'token-delay-ms': { type: 'string', default: '40' },
  },
});

const port = Number(values.port);
const tokenDelayMs = Number(values['token-delay-ms']);
if (
  !Number.isInteger(port) ||
  port < 0 ||
  port > 65535 ||
  !Number.isFinite(tokenDelayMs) ||
  tokenDelayMs < 0
) {
  process.stderr.write('Usage: ai:test-server [--port 4010] [--host 127.0.0.1] [--token-delay-ms 40]\n');
  process.exit(2);
}

const server = await startOpenAiServer({
  port,
  host: values.host,
  tokenDelayMs,
  defaultReply: plausiblePolishReply,
});

process.stdout.write(
  [
    `OpenAI-compatible test server on ${server.url} (model gem-test-model, ${tokenDelayMs} ms per token).`,
    'Start GEM against it in another terminal:',
    `  GEM_AI_PROVIDER=openai-compatible GEM_AI_BASE_URL=${server.url} GEM_AI_MODEL=gem-test-model npm start`,
    'Script faults over HTTP, e.g.:',
    `  curl -X POST ${server.url.replace(/\/v1$/, '')}/__control/replies -d '[{"kind":"status","status":429,"retryAfterSeconds":1}]'`,
    `  curl -X POST ${server.url.replace(/\/v1$/, '')}/__control/replies -d '[{"kind":"raw-json","text":"{\\"title\\":"}]'`,
    'Ctrl+C stops it.',
    '',
  ].join('\n'),
);

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

import { generationEventSchema, type GenerationEvent } from '@gem/contracts/generators';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { startOpenAiServer, type OpenAiServer } from '@gem/test-servers/openai-server';
import { buildApp, type App } from '../src/app';
import { testConfig, type AiConfig, type Config } from '../src/config';
import type { Database } from '../src/db/client';
import { createTestDatabase } from './test-database';

/**
 * For tests of the AI tools: an OpenID issuer to mint access tokens, the OpenAI-compatible
 * test server, a fresh database, and GEM apps built against them (the real adapter, over HTTP).
 */

const AUDIENCE = 'api://gem-ai-test';
const CLIENT_ID = 'gem-ai-spa';
/** Everyone at this domain has app access. */
export const PERMITTED_DOMAIN = 'gem.example';

export type AiHarness = {
  issuer: OidcIssuer;
  ai: OpenAiServer;
  database: Database;
  /** A GEM app with the AI service at the test server; `service: null` for none. */
  app(overrides?: Partial<Omit<AiConfig, 'service'>> & { service?: null }): Promise<App>;
  /** `authorization` header value for a permitted user. */
  bearer(user: string): Promise<string>;
  close(): Promise<void>;
};

export async function startAiHarness(): Promise<AiHarness> {
  const [issuer, ai, database] = await Promise.all([
    startOidcIssuer(),
    startOpenAiServer(),
    createTestDatabase(),
  ]);
  const apps: App[] = [];

  function config(overrides: Partial<Omit<AiConfig, 'service'>> & { service?: null }): Config {
    const base = testConfig();
    return testConfig({
      auth: {
        mode: 'external',
        publicUrl: 'http://localhost:3000',
        issuer: issuer.issuer,
        clientId: CLIENT_ID,
        scope: `${AUDIENCE}/access`,
        audience: AUDIENCE,
        requiredScope: undefined,
        demoAccounts: false,
        embeddedExplicit: false,
      },
      access: { ...base.access, allowedDomains: [PERMITTED_DOMAIN] },
      ai: {
        ...base.ai,
        service: {
          provider: 'openai-compatible',
          model: 'gem-test-model',
          baseUrl: ai.url,
          apiKey: 'test-key',
        },
        timeoutMs: 5_000,
        retryBaseDelayMs: 10,
        limits: { perMinute: 1_000, concurrent: 50 },
        ...overrides,
      },
    });
  }

  return {
    issuer,
    ai,
    database,
    async app(overrides = {}) {
      const app = await buildApp({ config: config(overrides), database });
      apps.push(app);
      await app.ready();
      return app;
    },
    async bearer(user) {
      const token = await issuer.sign({
        sub: user,
        aud: AUDIENCE,
        azp: CLIENT_ID,
        scope: 'access',
        email: `${user}@${PERMITTED_DOMAIN}`,
        name: user,
      });
      return `Bearer ${token}`;
    },
    async close() {
      for (const app of apps) await app.close();
      await ai.close();
      await database.close();
      await issuer.close();
    },
  };
}

/** The events of an NDJSON body, each checked against the contract. */
export function parseEvents(body: string): GenerationEvent[] {
  return body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => generationEventSchema.parse(JSON.parse(line)));
}

/** The text a page shows at the end of a stream: deltas appended, cleared at restart. */
export function streamedText(events: GenerationEvent[]): string {
  let text = '';
  for (const event of events) {
    if (event.type === 'delta') text += event.text;
    if (event.type === 'restart') text = '';
  }
  return text;
}

import { briefCreatorPaths, chatResponseSchema } from '@gem/contracts/brief-creator';
import { aiStatusResponseSchema, generatorPaths } from '@gem/contracts/generators';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalOf, parseEvents, PERMITTED_DOMAIN, sampleInputs } from '../../../test/ai-harness';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import { DEMO_MODEL } from '../../config';
import type { Database } from '../../db/client';
import { generations } from '../../db/schema/index';

/**
 * The built-in stand-in (issue 27, item 13): with no AI service on the embedded defaults, GEM
 * answers every AI tool with examples, through the real adapter and its own loopback server;
 * the status, every writing tool's answer and the record say that it is the stand-in.
 */

let issuer: OidcIssuer;
let database: Database;
let app: App;

beforeAll(async () => {
  [issuer, database] = await Promise.all([startOidcIssuer(), createTestDatabase()]);
  const base = testConfig();
  app = await buildTestApp({
    database,
    config: testConfig({
      auth: externalAuth(issuer.issuer),
      access: { ...base.access, allowedDomains: [PERMITTED_DOMAIN] },
      ai: { ...base.ai, service: { provider: 'demo', model: DEMO_MODEL } },
    }),
  });
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([issuer?.close(), database?.close()]);
});

async function call(method: 'GET' | 'POST', url: string, payload?: object) {
  const authorization = `Bearer ${await issuer.sign(accessClaims('demo-user', PERMITTED_DOMAIN))}`;
  return app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
}

describe('the built-in stand-in', () => {
  it('says on the AI status that it answers', async () => {
    const status = aiStatusResponseSchema.parse((await call('GET', generatorPaths.aiStatus)).json());
    expect(status).toEqual({ configured: true, provider: 'demo', model: DEMO_MODEL, demo: true });
  });

  it.each(['article', 'paid-ads', 'teaser-generator', 'summarize', 'social-media-post'] as const)(
    'answers %s with an example marked as a demo answer, and records the stand-in as the model',
    async (tool) => {
      const res = await call('POST', generatorPaths.generate(tool), sampleInputs[tool]);
      expect(res.statusCode, res.body).toBe(200);
      const { output } = finalOf(parseEvents(res.body));
      expect(output.text.length).toBeGreaterThan(20);
      expect(output.demo).toBe(true);
      const [record] = await database.db
        .select({ model: generations.model, outcome: generations.outcome })
        .from(generations)
        .where(eq(generations.generator, tool))
        .orderBy(desc(generations.createdAt))
        .limit(1);
      expect(record).toEqual({ model: DEMO_MODEL, outcome: 'succeeded' });
    },
  );

  it('answers a brief chat turn with a structured answer', async () => {
    const res = await call('POST', briefCreatorPaths.chat, {
      message: 'Planujemy webinar dla CFO o raportowaniu ESG.',
      language: 'Polish',
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = chatResponseSchema.parse(res.json());
    expect(answer.error).toBeUndefined();
    expect(answer.response.length).toBeGreaterThan(10);
  });
});

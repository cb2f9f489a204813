import {
  campaignAudienceBuilderPaths as paths,
  campaignsResponseSchema,
  generateSegmentsResponseSchema,
} from '@gem/contracts/campaign-audience-builder';
import { startOidcIssuer, type OidcIssuer } from '@gem/test-servers/oidc-issuer';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMITTED_DOMAIN } from '../../../test/ai-harness';
import { accessClaims, buildTestApp, externalAuth } from '../../../test/test-app';
import { testConfig } from '../../../test/test-config';
import { createTestDatabase } from '../../../test/test-database';
import type { App } from '../../app';
import { DEMO_MODEL } from '../../config';
import type { Database } from '../../db/client';
import { generations } from '../../db/schema/index';

/**
 * The audience builder on the built-in stand-in (issue 27, item 13): with no AI service on the
 * embedded defaults, its segments are an example, and the answer and the record say so (with a
 * real service they do not: campaign-audience-builder.test.ts).
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

async function generate() {
  const headers = {
    authorization: `Bearer ${await issuer.sign(accessClaims('demo-user', PERMITTED_DOMAIN))}`,
  };
  const listed = campaignsResponseSchema.parse(
    (await app.inject({ method: 'GET', url: paths.campaigns, headers })).json(),
  );
  return app.inject({
    method: 'POST',
    url: paths.generate,
    headers,
    payload: {
      campaignId: listed.campaigns[0]!.id,
      topic: 'Więcej dyrektorów finansowych ze średnich firm.',
    },
  });
}

describe('the audience builder on the built-in stand-in', () => {
  it('marks the segments as a demo answer, and the record names the stand-in', async () => {
    const res = await generate();
    expect(res.statusCode, res.body).toBe(200);
    const body = generateSegmentsResponseSchema.parse(res.json());
    expect(body.demo).toBe(true);
    expect(body.analysis.language).toBe('pl');
    expect(body.subIndustries.length).toBeGreaterThan(0);
    const [record] = await database.db
      .select({ model: generations.model, outcome: generations.outcome, output: generations.output })
      .from(generations)
      .where(eq(generations.generator, 'campaign-audience-builder'))
      .orderBy(desc(generations.createdAt))
      .limit(1);
    expect(record).toMatchObject({ model: DEMO_MODEL, outcome: 'succeeded', output: { demo: true } });
  }, 90_000);
});

import {
  campaignAudienceBuilderPaths as paths,
  campaignsResponseSchema,
  generateSegmentsResponseSchema,
} from '@gem/contracts/campaign-audience-builder';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useDemoApp } from '../../../test/demo-app';
import { DEMO_MODEL } from '../../config';
import { generations } from '../../db/schema/index';

/**
 * The audience builder on the built-in stand-in (issue 27, item 13): with no AI service on the
 * embedded defaults, its segments are an example, and the answer and the record say so (with a
 * real service they do not: campaign-audience-builder.test.ts).
 */

const demo = useDemoApp('demo-user');

async function generate() {
  const listed = campaignsResponseSchema.parse((await demo.call('GET', paths.campaigns)).json());
  return demo.call('POST', paths.generate, {
    campaignId: listed.campaigns[0]!.id,
    topic: 'Więcej dyrektorów finansowych ze średnich firm.',
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
    const [record] = await demo
      .db()
      .select({ model: generations.model, outcome: generations.outcome, output: generations.output })
      .from(generations)
      .where(eq(generations.generator, 'campaign-audience-builder'))
      .orderBy(desc(generations.createdAt))
      .limit(1);
    expect(record).toMatchObject({ model: DEMO_MODEL, outcome: 'succeeded', output: { demo: true } });
  }, 90_000);
});

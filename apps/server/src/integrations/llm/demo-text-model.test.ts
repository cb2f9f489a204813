import { briefCreatorPaths, chatResponseSchema } from '@gem/contracts/brief-creator';
import { aiStatusPath, aiStatusResponseSchema } from '@gem/contracts/ai-status';
import { writingToolPaths } from '@gem/contracts/writing-tools';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { finalOf, parseEvents, sampleInputs } from '../../../test/ai-harness';
import { useDemoApp } from '../../../test/demo-app';
import { DEMO_MODEL } from '../../config';
import { generations } from '../../db/schema/index';

/**
 * The built-in stand-in (issue 27, item 13): with no AI service on the embedded defaults, GEM
 * answers every AI tool with examples, through the real adapter and its own loopback server;
 * the status, every writing tool's answer and the record say that it is the stand-in.
 */

const demo = useDemoApp('demo-user');

describe('the built-in stand-in', () => {
  it('says on the AI status that it answers', async () => {
    const status = aiStatusResponseSchema.parse((await demo.call('GET', aiStatusPath)).json());
    expect(status).toEqual({ configured: true, provider: 'demo', model: DEMO_MODEL, demo: true });
  });

  it.each(['article', 'paid-ads', 'teaser-generator', 'summarize', 'social-media-post'] as const)(
    'answers %s with an example marked as a demo answer, and records the stand-in as the model',
    async (tool) => {
      const res = await demo.call('POST', writingToolPaths.generate(tool), sampleInputs[tool]);
      expect(res.statusCode, res.body).toBe(200);
      const { output } = finalOf(parseEvents(res.body));
      expect(output.text.length).toBeGreaterThan(20);
      expect(output.demo).toBe(true);
      const [record] = await demo
        .db()
        .select({ model: generations.model, outcome: generations.outcome })
        .from(generations)
        .where(eq(generations.generator, tool))
        .orderBy(desc(generations.createdAt))
        .limit(1);
      expect(record).toEqual({ model: DEMO_MODEL, outcome: 'succeeded' });
    },
  );

  it('answers a brief chat turn with a structured answer', async () => {
    const res = await demo.call('POST', briefCreatorPaths.chat, {
      message: 'Planujemy webinar dla CFO o raportowaniu ESG.',
      language: 'Polish',
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = chatResponseSchema.parse(res.json());
    expect(answer.error).toBeUndefined();
    expect(answer.response.length).toBeGreaterThan(10);
  });
});

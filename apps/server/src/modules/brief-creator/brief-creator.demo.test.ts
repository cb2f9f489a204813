import {
  assistantContentOf,
  briefChatEventSchema,
  briefCreatorPaths,
  chatResponseSchema,
  chatSessionDetailsSchema,
  chatSessionPath,
  type ChatRequest,
} from '@gem/contracts/brief-creator';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useDemoApp } from '../../../test/demo-app';
import { DEMO_MODEL } from '../../config';
import { generations } from '../../db/schema/index';

/**
 * The brief chat on the built-in stand-in (issue 27, item 13; GEM_AI_PROVIDER=demo): every answer
 * it writes is marked as a demo answer, to the page (whole and streamed) and in the stored message,
 * so a resumed chat still marks it; the record names the stand-in.
 */

const demo = useDemoApp('demo-brief-user');

async function turn(body: ChatRequest) {
  const res = await demo.call('POST', briefCreatorPaths.chat, body);
  expect(res.statusCode, res.body).toBe(200);
  return chatResponseSchema.parse(res.json());
}

async function lastRecord() {
  const [row] = await demo
    .db()
    .select({ model: generations.model, outcome: generations.outcome, output: generations.output })
    .from(generations)
    .where(eq(generations.generator, 'brief-creator'))
    .orderBy(desc(generations.createdAt))
    .limit(1);
  return row!;
}

describe('the brief chat on the built-in stand-in', () => {
  it('marks each answer as a demo answer, in the response, the stored message and the record', async () => {
    const first = await turn({
      message: 'Planujemy webinar dla CFO o raportowaniu ESG.',
      language: 'Polish',
    });
    expect(first.error).toBeUndefined();
    expect(first.response.length).toBeGreaterThan(10);
    expect(first.demo).toBe(true);
    expect(await lastRecord()).toMatchObject({
      model: DEMO_MODEL,
      outcome: 'succeeded',
      output: expect.objectContaining({ demo: true }),
    });

    const sessionId = first.sessionId;
    const audience = await turn({ message: '', sessionId, generateTargetAudience: true, language: 'Polish' });
    expect(audience.error).toBeUndefined();
    expect(audience.generatedTargetAudience).not.toBeNull();
    expect(audience.demo).toBe(true);
    const ideas = await turn({ message: '', sessionId, generateRecommendations: true, language: 'Polish' });
    expect(ideas.error).toBeUndefined();
    expect(ideas.recommendations.length).toBeGreaterThan(0);
    expect(ideas.demo).toBe(true);

    // Resumed: every stored answer still says it is a demo answer.
    const res = await demo.call('GET', chatSessionPath(sessionId));
    expect(res.statusCode, res.body).toBe(200);
    const stored = chatSessionDetailsSchema
      .parse(res.json())
      .messages.filter((m) => m.role === 'assistant')
      .map((m) => assistantContentOf(m.content));
    expect(stored).toHaveLength(3);
    expect(stored.map((content) => content.demo)).toEqual([true, true, true]);
  });

  it('marks a streamed answer too', async () => {
    const res = await demo.call('POST', briefCreatorPaths.chatStream, {
      message: 'Raport o cyberbezpieczeństwie dla zarządów.',
      language: 'Polish',
    });
    expect(res.statusCode, res.body).toBe(200);
    const events = res.body
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => briefChatEventSchema.parse(JSON.parse(line)));
    const final = events.at(-1);
    expect(final?.type, res.body).toBe('final');
    if (final?.type !== 'final') return;
    expect(final.response.demo).toBe(true);
  });

  it('does not mark what no model wrote: the accepted brief', async () => {
    const first = await turn({ message: 'Kampania e-mailowa dla klientów.', language: 'Polish' });
    const accepted = await turn({
      message: '',
      sessionId: first.sessionId,
      confirmJsonResponse: true,
      language: 'Polish',
    });
    expect(accepted.finishedBriefId).toBeTruthy();
    expect(accepted.demo).toBeUndefined();
  });
});

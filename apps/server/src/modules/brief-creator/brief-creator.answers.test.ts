import {
  briefChatEventSchema,
  briefChatFailureTexts,
  briefCreatorPaths,
  chatResponseSchema,
  type ChatRequest,
  type ChatResponse,
} from '@gem/contracts/brief-creator';
import { briefChatTurn } from '@gem/test-servers/brief-replies';
import {
  replyFor,
  startingBrief,
  structuredAnswers,
  type StructuredAnswerCase,
} from '@gem/test-servers/real-model-answers/structured';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { App } from '../../app';
import { useAiHarness } from '../../../test/ai-harness';
import { generations } from '../../db/schema/index';
import { apologies } from './brief-creator.prompts';

/**
 * What real models send the brief creator (issue 26, the corpus in test-servers'
 * real-model-answers/structured.ts), through the real routes and adapter against the
 * OpenAI-compatible test server, in both structured modes, streamed and whole, on the database:
 * every answer ends in the right chat answer and brief, or (cut at max_tokens) in one more call
 * and a clear error, never in a brief made from half an answer.
 */

const t = useAiHarness();
const modes = ['json-schema', 'tool'] as const;
const ways = ['whole', 'streamed'] as const;
const cases = structuredAnswers.filter((c) => c.tool !== 'audience-segments');

const apps = new Map<string, App>();
async function appFor(mode: (typeof modes)[number]) {
  let app = apps.get(mode);
  if (!app) {
    app = mode === 'json-schema' ? t.main : await t.app({ structuredOutput: 'tool' });
    apps.set(mode, app);
  }
  return app;
}

/** A turn, whole or streamed; the chat response it ends with (error included). */
async function send(
  app: App,
  way: (typeof ways)[number],
  user: string,
  body: ChatRequest,
): Promise<{ response: ChatResponse; deltas: string }> {
  const res = await app.inject({
    method: 'POST',
    url: way === 'whole' ? briefCreatorPaths.chat : briefCreatorPaths.chatStream,
    headers: { authorization: await t.bearer(user) },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  if (way === 'whole') return { response: chatResponseSchema.parse(res.json()), deltas: '' };
  const events = res.body
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => briefChatEventSchema.parse(JSON.parse(line)));
  let deltas = '';
  for (const event of events) {
    if (event.type === 'delta') deltas += event.text;
    if (event.type === 'restart') deltas = '';
  }
  const last = events.at(-1);
  if (last?.type === 'final') return { response: last.response, deltas };
  if (last?.type !== 'error') throw new Error(`no final or error event: ${res.body}`);
  // The failed turn's answer, as the whole call gives it.
  const [session] = events;
  return {
    response: {
      response: '',
      sessionId: session?.type === 'session' ? session.sessionId : last.sessionId!,
      proposedBriefData: null,
      isAwaitingConfirmation: false,
      generatedTargetAudience: null,
      recommendations: [],
      error: last.error,
    },
    deltas,
  };
}

async function lastRecord() {
  const [row] = await t.database.db
    .select()
    .from(generations)
    .where(eq(generations.generator, 'brief-creator'))
    .orderBy(desc(generations.createdAt))
    .limit(1);
  return row!;
}

const kindOf = (answerCase: StructuredAnswerCase) =>
  answerCase.tool === 'brief-chat'
    ? 'chat'
    : answerCase.tool === 'target-audience'
      ? 'targetAudience'
      : 'recommendations';

describe.each(modes)('real models’ answers, as %s', (mode) => {
  describe.each(ways)('%s', (way) => {
    it.each(cases.map((c) => [c.id, c] as const))('%s', async (id, answerCase) => {
      const app = await appFor(mode);
      const user = `${mode}-${way}-${id}`;
      const language = answerCase.language;
      let body: ChatRequest;
      if (answerCase.tool === 'brief-chat') {
        body = {
          message: 'A summit for CFOs, an event with a webinar.',
          language,
          currentBriefData: startingBrief,
        };
      } else {
        // The actions work on a session's brief.
        t.ai.enqueue({ kind: 'object', value: briefChatTurn('Noted.', { campaignType: ['Event'] }) });
        const started = await send(app, 'whole', user, {
          message: 'A summit for CFOs.',
          language,
          currentBriefData: startingBrief,
        });
        t.ai.reset();
        body = {
          message: '',
          sessionId: started.response.sessionId,
          language,
          ...(answerCase.tool === 'target-audience'
            ? { generateTargetAudience: true }
            : { generateRecommendations: true }),
        };
      }

      const reply = replyFor(answerCase);
      t.ai.enqueue(reply, reply);
      const { response, deltas } = await send(app, way, user, body);
      const { expected } = answerCase;

      if (expected === 'incomplete') {
        // Asked once more (a fresh call, the same request), cut again: a clear error.
        expect(t.ai.requests).toHaveLength(2);
        expect(t.ai.requests[1]!.body.messages).toEqual(t.ai.requests[0]!.body.messages);
        expect(response.error).toEqual({
          code: 'ai_unavailable',
          message: briefChatFailureTexts[kindOf(answerCase)],
        });
        if (way === 'whole') expect(response.response).toBe(apologies[kindOf(answerCase)]);
        expect(await lastRecord()).toMatchObject({ outcome: 'failed', errorCode: 'incomplete' });
        return;
      }

      expect(response.error, JSON.stringify(response.error)).toBeUndefined();
      // A real service's answer is not marked as the stand-in's (issue 27).
      expect(response.demo).toBeUndefined();
      // One call: no repair was needed.
      expect(t.ai.requests).toHaveLength(1);
      expect(t.ai.requests[0]!.structured?.mode).toBe(mode);
      if (way === 'streamed' && !answerCase.asText) {
        // The answer showed while it was written, fence or preamble before it or not.
        expect(deltas.length).toBeGreaterThan(0);
      }
      switch (expected.tool) {
        case 'brief-chat':
          expect(response.response).toBe(expected.response);
          expect(response.proposedBriefData).toMatchObject(expected.brief);
          expect(response.isAwaitingConfirmation).toBe(expected.isAwaitingConfirmation);
          break;
        case 'target-audience':
          expect(response.generatedTargetAudience).toBe(expected.targetAudience);
          expect(response.proposedBriefData?.targetAudience).toBe(expected.targetAudience);
          expect(response.proposedBriefData?.budget).toBe(startingBrief.budget);
          break;
        case 'recommendations':
          expect(response.recommendations).toEqual(expected.recommendations);
          break;
        default:
          throw new Error(`not a brief creator case: ${id}`);
      }
      const record = await lastRecord();
      expect(record).toMatchObject({ outcome: 'succeeded' });
      expect(record.output).not.toHaveProperty('demo');
    });
  });
});

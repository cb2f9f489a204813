import {
  briefChatEventSchema,
  briefCreatorPaths,
  chatResponseSchema,
  type BriefChatEvent,
  type ChatRequest,
} from '@gem/contracts/brief-creator';
import { BRIEF_LIST_ITEM_MAX, BRIEF_TEXT_FIELD_MAX } from '@gem/contracts/brief-creator';
import { isStorableText } from '@gem/contracts/text-rules';
import { briefChatTurn } from '@gem/test-servers/brief-replies';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useAiHarness } from '../../../test/ai-harness';
import { briefMessages, generations } from '../../db/schema/index';

/**
 * Text GEM must store whatever the model sends (issue 25, items 5 and 8): a field cut at the
 * brief's limits inside an emoji keeps whole characters and the next turn keeps the brief; a
 * system message that cannot be read never empties it in silence; a NUL in the model's object
 * does not fail the turn's record. Over HTTP, against the OpenAI-compatible test server and the
 * database.
 */

const t = useAiHarness();
const turn = (answer: string, updates: Record<string, unknown> = {}) => ({
  kind: 'object' as const,
  value: briefChatTurn(answer, updates, false),
});

async function post(path: string, user: string, body: ChatRequest) {
  return t.main.inject({
    method: 'POST',
    url: path,
    headers: { authorization: await t.bearer(user) },
    payload: body,
  });
}

const longName = `${'a'.repeat(BRIEF_TEXT_FIELD_MAX - 1)}😀`;
const longItem = `${'b'.repeat(BRIEF_LIST_ITEM_MAX - 1)}🇵🇱`;

describe('a field cut at its limit inside an emoji', () => {
  it('is cut before the emoji, stored, and the next turn keeps the brief (JSON call)', async () => {
    t.ai.enqueue(
      turn('Noted.', { campaignName: longName, primaryObjective: 'Win 40 CFO leads.', channels: [longItem] }),
    );
    const first = await post(briefCreatorPaths.chat, 'ola', { message: 'A webinar.', language: 'English' });
    expect(first.statusCode, first.body).toBe(200);
    const answer = chatResponseSchema.parse(first.json());
    expect(answer.proposedBriefData?.campaignName).toBe('a'.repeat(BRIEF_TEXT_FIELD_MAX - 1));
    expect(answer.proposedBriefData?.channels).toEqual(['b'.repeat(BRIEF_LIST_ITEM_MAX - 1)]);

    t.ai.enqueue(turn('And the key messages?', { keyMessages: 'Cash flow visibility.' }));
    const second = await post(briefCreatorPaths.chat, 'ola', {
      message: 'Cash flow visibility.',
      sessionId: answer.sessionId,
    });
    expect(second.statusCode, second.body).toBe(200);
    const kept = chatResponseSchema.parse(second.json()).proposedBriefData;
    expect(kept?.primaryObjective).toBe('Win 40 CFO leads.');
    expect(kept?.keyMessages).toBe('Cash flow visibility.');
  });

  it('streams a final brief that the page can send back as it is', async () => {
    t.ai.enqueue(turn('Noted.', { campaignName: longName }));
    const res = await post(briefCreatorPaths.chatStream, 'piotr', {
      message: 'A webinar.',
      language: 'English',
    });
    const events = res.body
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => briefChatEventSchema.parse(JSON.parse(l))) as BriefChatEvent[];
    const final = events.at(-1);
    if (final?.type !== 'final') throw new Error(res.body);
    const brief = final.response.proposedBriefData!;
    expect(isStorableText(brief.campaignName)).toBe(true);

    t.ai.enqueue(turn('Thanks.'));
    const back = await post(briefCreatorPaths.chat, 'piotr', {
      message: 'Go on.',
      sessionId: final.response.sessionId,
      currentBriefData: brief,
    });
    expect(back.statusCode, back.body).toBe(200);
  });
});

describe('brief data that cannot be read', () => {
  async function sessionWithBrief(user: string) {
    t.ai.enqueue(turn('Noted.', { campaignName: 'CFO Webinar', primaryObjective: 'Win 40 CFO leads.' }));
    const res = await post(briefCreatorPaths.chat, user, { message: 'A webinar.', language: 'English' });
    return chatResponseSchema.parse(res.json()).sessionId;
  }
  async function newestSystemMessage(sessionId: string) {
    const [row] = await t.database.db
      .select({ seq: briefMessages.seq })
      .from(briefMessages)
      .where(and(eq(briefMessages.sessionId, sessionId), eq(briefMessages.role, 'system')))
      .orderBy(desc(briefMessages.seq))
      .limit(1);
    return row!.seq;
  }
  const setContent = (sessionId: string, seq: number, content: string) =>
    t.database.db
      .update(briefMessages)
      .set({ content })
      .where(and(eq(briefMessages.sessionId, sessionId), eq(briefMessages.seq, seq)));

  it('reads a lone half of an emoji stored before cuts kept characters whole', async () => {
    const sessionId = await sessionWithBrief('rafal');
    const seq = await newestSystemMessage(sessionId);
    const [row] = await t.database.db
      .select({ content: briefMessages.content })
      .from(briefMessages)
      .where(and(eq(briefMessages.sessionId, sessionId), eq(briefMessages.seq, seq)));
    const damaged = JSON.parse(row!.content) as Record<string, unknown>;
    damaged.campaignName = `CFO Webinar \ud83d`;
    await setContent(sessionId, seq, JSON.stringify(damaged));

    t.ai.enqueue(turn('Go on.'));
    const res = await post(briefCreatorPaths.chat, 'rafal', { message: 'More.', sessionId });
    expect(res.statusCode, res.body).toBe(200);
    const brief = chatResponseSchema.parse(res.json()).proposedBriefData;
    expect(brief?.campaignName).toBe('CFO Webinar \ufffd');
    expect(brief?.primaryObjective).toBe('Win 40 CFO leads.');
  });

  it('keeps the last readable brief, and fails rather than start from an empty one', async () => {
    const sessionId = await sessionWithBrief('sara');
    // A newer system message that cannot be read: the one before it stands.
    t.ai.enqueue(turn('Noted.', { keyMessages: 'Cash flow.' }));
    await post(briefCreatorPaths.chat, 'sara', { message: 'Cash flow.', sessionId });
    const seq = await newestSystemMessage(sessionId);
    await setContent(sessionId, seq, '{"campaignName": 42}');
    t.ai.enqueue(turn('Go on.'));
    const kept = await post(briefCreatorPaths.chat, 'sara', { message: 'More.', sessionId });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(chatResponseSchema.parse(kept.json()).proposedBriefData?.primaryObjective).toBe(
      'Win 40 CFO leads.',
    );

    // None readable: the turn fails with words, and nothing is written over the brief.
    await t.database.db
      .update(briefMessages)
      .set({ content: 'not json' })
      .where(and(eq(briefMessages.sessionId, sessionId), eq(briefMessages.role, 'system')));
    const failed = await post(briefCreatorPaths.chat, 'sara', { message: 'Again.', sessionId });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({
      error: { message: 'Error fetching brief data from session messages. Start a new chat to go on.' },
    });
  });
});

describe('a NUL in the model’s object', () => {
  it('is stored as U+FFFD in the record, and the turn answers', async () => {
    t.ai.enqueue(
      turn('Noted.\u0000 What next?', { campaignName: 'CFO\u0000 Webinar', keyMessages: 'a\ud83db' }),
    );
    const res = await post(briefCreatorPaths.chat, 'tomasz', { message: 'A webinar.', language: 'English' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = chatResponseSchema.parse(res.json());
    expect(answer.error).toBeUndefined();
    expect(answer.response).toBe('Noted.\ufffd What next?');
    expect(answer.proposedBriefData?.campaignName).toBe('CFO\ufffd Webinar');
    const [record] = await t.database.db
      .select({ output: generations.output, outcome: generations.outcome })
      .from(generations)
      .where(eq(generations.generator, 'brief-creator'))
      .orderBy(desc(generations.createdAt))
      .limit(1);
    expect(record?.outcome).toBe('succeeded');
    expect(JSON.stringify(record?.output)).toContain('CFO\ufffd Webinar');
    expect(JSON.stringify(record?.output)).not.toContain('\\u0000');
  });
});

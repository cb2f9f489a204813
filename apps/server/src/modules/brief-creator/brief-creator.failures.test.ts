import {
  assistantContentOf,
  briefChatEventSchema,
  briefChatFailureTexts,
  briefCreatorPaths,
} from '@gem/contracts/brief-creator';
import { desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/ai-harness';
import { generations } from '../../db/schema/index';
import { apologies, repairRequest } from './brief-creator.prompts';
import { filledBrief, finalOf, rolesOf, turn, useBriefCreatorHarness } from './brief-creator.test-support';

/**
 * The brief creator when the model's answer is wrong or missing, end to end over HTTP
 * (brief-creator.test-support.ts): answers repaired by one more call, a failed model, a retry, a
 * stalled answer, a brief the database refuses, no AI service at all.
 */

const { t, postJson, chat, chatStream, sessionsOf } = useBriefCreatorHarness();

/** The validation message a repair request names: what follows the path, to the end of its line. */
const issueOf = (request: string) => {
  const line = request.split('\n')[0]!;
  return line.slice(line.indexOf(': ') + 2);
};

describe('a conversation to a finished brief', () => {
  it('keeps only the fields the model may set: dates as ISO dates, campaign types from the list', async () => {
    // A wrong shape (a date in words, a type not on the list) is asked for once more.
    t.ai.enqueue(
      turn('Wrong', { eventDate: 'next Thursday', campaignType: ['Podcast'] }),
      turn('Fixed', {
        eventDate: '2027-01-14',
        campaignType: ['Event', 'Event'],
        channels: ['  LinkedIn ', ''],
      }),
    );
    const response = await chat('dorota', { message: 'An event next Thursday.', language: 'English' });
    expect(response.error).toBeUndefined();
    expect(response.proposedBriefData).toMatchObject({
      eventDate: '2027-01-14',
      campaignType: ['Event'],
      channels: ['LinkedIn'],
    });
    expect(t.ai.requests).toHaveLength(2);
    // The repair turn shows the model its answer and names what is wrong with it.
    const [first, second] = t.ai.requests;
    const sent = first!.body.messages!;
    const repair = second!.body.messages!;
    expect(repair.slice(0, sent.length)).toEqual(sent);
    expect(repair.slice(sent.length)).toEqual([
      {
        role: 'assistant',
        content: JSON.stringify(
          turn('Wrong', { eventDate: 'next Thursday', campaignType: ['Podcast'] }).value,
        ),
      },
      {
        role: 'user',
        content: expect.stringContaining('w polu briefUpdates.campaignType[0]: Invalid option'),
      },
    ]);
    expect(repair.at(-1)?.content).toBe(
      repairRequest({ path: 'briefUpdates.campaignType[0]', message: issueOf(repair.at(-1)!.content) }),
    );
  });

  it('shows a fenced answer that does not match the schema back to the model with the validation error, then uses the repair', async () => {
    const bad = `Oto odpowiedź:\n\`\`\`json\n${JSON.stringify(turn('Zła data', { eventDate: '18.03.2027' }).value)}\n\`\`\``;
    t.ai.enqueue({ kind: 'raw-json', text: bad }, turn('Dobra data', { eventDate: '2027-03-18' }));
    const response = await chat('ola', { message: 'Wydarzenie 18 marca 2027.', language: 'Polish' });
    expect(response.response).toBe('Dobra data');
    expect(response.proposedBriefData?.eventDate).toBe('2027-03-18');
    const repair = t.ai.requests[1]!.body.messages!;
    expect(repair.at(-2)).toEqual({ role: 'assistant', content: bad });
    expect(repair.at(-1)?.content).toContain(
      'nie pasuje do wymaganego schematu w polu briefUpdates.eventDate: A date must be written as YYYY-MM-DD.',
    );
  });
});

describe('failures', () => {
  it('keeps the message when the model fails, stores the apology, and answers with the spec text', async () => {
    t.ai.enqueue(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
    );
    const events = await chatStream('hanna', {
      message: 'Our webinar on ESG reporting.',
      language: 'English',
    });
    const last = events.at(-1);
    expect(last).toMatchObject({
      type: 'error',
      error: { code: 'ai_unavailable', message: briefChatFailureTexts.chat },
    });
    const sessionId = events[0]?.type === 'session' ? events[0].sessionId : '';
    expect(last?.type === 'error' && last.sessionId).toBe(sessionId);

    const [session] = await sessionsOf('hanna');
    expect(session!.messages[0]).toMatchObject({ role: 'user', content: 'Our webinar on ESG reporting.' });
    const apology = assistantContentOf(session!.messages[1]!.content);
    expect(apology.standardAnswer).toBe(apologies.chat);
    expect(apology.error?.message).toBe(briefChatFailureTexts.chat);

    // Sent again, it goes on in the same session; the failed answer is not shown to the model.
    t.ai.reset();
    t.ai.enqueue(turn('Thanks! What is the campaign called?'));
    const retried = finalOf(
      await chatStream('hanna', { message: 'Our webinar on ESG reporting.', sessionId }),
    );
    expect(retried.sessionId).toBe(sessionId);
    expect(t.ai.requests[0]!.body.messages!.map((m) => m.role)).toEqual(['system', 'user', 'user']);
  });

  it('answers the stored message again on a retry, without storing it twice (issue 27)', async () => {
    t.ai.enqueue(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
    );
    const failed = await chatStream('henryk', {
      message: 'Our webinar on ESG reporting.',
      language: 'English',
    });
    expect(failed.at(-1)?.type).toBe('error');
    const sessionId = failed[0]?.type === 'session' ? failed[0].sessionId : '';

    t.ai.reset();
    t.ai.enqueue(turn('Thanks! What is the campaign called?'));
    const retried = finalOf(
      await chatStream('henryk', { message: '', sessionId, retryLastMessage: true, language: 'English' }),
    );
    expect(retried.response).toBe('Thanks! What is the campaign called?');
    // The model saw the message once; the session holds it once, then the apology, then the answer.
    expect(t.ai.requests[0]!.body.messages!.map((m) => [m.role, m.content])).toEqual([
      ['system', expect.any(String)],
      ['user', 'Our webinar on ESG reporting.'],
    ]);
    const [session] = await sessionsOf('henryk');
    expect(rolesOf(session!.messages)).toEqual(['user', 'assistant', 'assistant']);
    expect(assistantContentOf(session!.messages[2]!.content).standardAnswer).toBe(retried.response);
    const [record] = await t.database.db
      .select()
      .from(generations)
      .where(eq(generations.generator, 'brief-creator'))
      .orderBy(desc(generations.createdAt))
      .limit(1);
    expect(record?.input).toMatchObject({ kind: 'chat', sessionId, retry: true });

    // Answered now: a second retry has nothing to answer, and no model is asked.
    t.ai.reset();
    const again = await postJson(briefCreatorPaths.chatStream, 'henryk', {
      message: '',
      sessionId,
      retryLastMessage: true,
    });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(
      'The last message has its answer already: there is nothing to send again.',
    );
    expect(t.ai.requests).toHaveLength(0);
  });

  it('refuses a retry without a session, with a new message, or with an action, naming the field', async () => {
    const sessionId = '6d0f1c1e-8a4b-4f5e-9a39-0f8f3c2b1a00';
    const cases: [object, string][] = [
      [{ message: '', retryLastMessage: true }, 'sessionId'],
      [{ message: 'New text', sessionId, retryLastMessage: true }, 'message'],
      [{ message: '', sessionId, retryLastMessage: true, generateRecommendations: true }, 'retryLastMessage'],
      [{ message: '', sessionId, retryLastMessage: 'yes' }, 'retryLastMessage'],
    ];
    for (const [body, field] of cases) {
      const res = await postJson(briefCreatorPaths.chat, 'henryk', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        errorOf(res).issues?.map((issue) => issue.path),
        JSON.stringify(body),
      ).toContain(`body.${field}`);
    }
  });

  it('answers the JSON call with the Polish apology and the screen text', async () => {
    t.ai.enqueue({ kind: 'raw-json', text: '{"standardAnswer": "cut' }, { kind: 'raw-json', text: '[1, 2' });
    const response = await chat('iga', { message: 'Hello', language: 'English' });
    expect(response.response).toBe(apologies.chat);
    expect(response.error).toEqual({ code: 'ai_unavailable', message: briefChatFailureTexts.chat });
    // One repair attempt, then the apology.
    expect(t.ai.requests).toHaveLength(2);
  });

  it('has its own words for a failed target audience, recommendations and a stalled answer', async () => {
    t.ai.enqueue(turn('Noted.', filledBrief));
    const { sessionId } = await chat('jan', { message: 'All about it.', language: 'English' });

    t.ai.enqueue({ kind: 'object', value: { wrong: true } }, { kind: 'object', value: { wrong: true } });
    const audience = await chat('jan', { message: '', sessionId, generateTargetAudience: true });
    expect(audience.error?.message).toBe(briefChatFailureTexts.targetAudience);
    expect(audience.response).toBe(apologies.targetAudience);

    t.ai.enqueue(
      { kind: 'object', value: { recommendations: 'not a list' } },
      { kind: 'raw-json', text: '{' },
    );
    const recommendations = await chat('jan', { message: '', sessionId, generateRecommendations: true });
    expect(recommendations.error?.message).toBe(briefChatFailureTexts.recommendations);

    const impatient = await t.app({ timeoutMs: 300 });
    t.ai.enqueue({ kind: 'stall', text: '{"standardAnswer": "Hel', afterTokens: 1 });
    const res = await impatient.inject({
      method: 'POST',
      url: briefCreatorPaths.chatStream,
      headers: { authorization: await t.bearer('jan') },
      payload: { message: 'Still there?', sessionId },
    });
    const events = res.body
      .trim()
      .split('\n')
      .map((line) => briefChatEventSchema.parse(JSON.parse(line)));
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'ai_timeout', message: briefChatFailureTexts.chat },
    });
    const [session] = await sessionsOf('jan');
    expect(session!.messages.filter((m) => m.role === 'user').at(-1)?.content).toBe('Still there?');
  });

  it('says so when a brief cannot be accepted, and keeps the session', async () => {
    const marker = 'the-database-refuses-this-brief';
    await t.database.db.execute(
      sql.raw(`create function gem_test_refuse_brief() returns trigger language plpgsql as $$
        begin
          if new.title like '%${marker}%' then raise exception 'refused by the test'; end if;
          return new;
        end $$`),
    );
    await t.database.db.execute(
      sql.raw(`create trigger gem_test_refuse_brief before insert on finished_briefs
        for each row execute function gem_test_refuse_brief()`),
    );
    t.ai.enqueue(turn('Noted.', { campaignName: marker }));
    const { sessionId } = await chat('kasia', { message: 'Name it.', language: 'English' });
    const response = await chat('kasia', { message: '', sessionId, confirmJsonResponse: true });
    expect(response.error?.message).toBe(briefChatFailureTexts.confirmation);
    expect(response.response).toBe(apologies.confirmation);
    expect((await sessionsOf('kasia')).map((s) => s.id)).toEqual([sessionId]);
  });

  it('answers 503 ai_not_configured without an AI service, while the lists still work', async () => {
    const without = await t.app({ service: null });
    const res = await without.inject({
      method: 'POST',
      url: briefCreatorPaths.chatStream,
      headers: { authorization: await t.bearer('leon') },
      payload: { message: 'Hello' },
    });
    expect(res.statusCode).toBe(503);
    expect(errorOf(res).code).toBe('ai_not_configured');
    const list = await without.inject({
      method: 'GET',
      url: briefCreatorPaths.chatSessions,
      headers: { authorization: await t.bearer('leon') },
    });
    expect(list.statusCode).toBe(200);
  });
});

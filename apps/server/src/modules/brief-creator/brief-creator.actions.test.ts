import { assistantContentOf, briefCreatorPaths, latestBriefData } from '@gem/contracts/brief-creator';
import { describe, expect, it } from 'vitest';
import { errorOf, systemOf } from '../../../test/ai-harness';
import { filledBrief, finalOf, turn, useBriefCreatorHarness } from './brief-creator.test-support';

/**
 * The brief creator's actions end to end over HTTP (brief-creator.test-support.ts): a target
 * audience and recommendations generated for a session's brief, and the requests refused.
 */

const { t, postJson, chat, chatStream, sessionsOf } = useBriefCreatorHarness();

describe('the actions', () => {
  async function startedSession(user: string) {
    t.ai.enqueue(turn('Noted.', filledBrief));
    const { sessionId } = await chat(user, { message: 'Everything about the webinar.', language: 'English' });
    t.ai.reset();
    return sessionId;
  }

  it('generates a target audience into an empty field', async () => {
    const sessionId = await startedSession('ewa');
    t.ai.enqueue({
      kind: 'object',
      value: { targetAudience: 'CFOs and finance directors of mid-size manufacturers.' },
    });
    const events = await chatStream('ewa', {
      message: '',
      sessionId,
      generateTargetAudience: true,
      language: 'English',
    });
    const response = finalOf(events);
    expect(response.generatedTargetAudience).toBe('CFOs and finance directors of mid-size manufacturers.');
    expect(response.proposedBriefData?.targetAudience).toBe(response.generatedTargetAudience);
    expect(events.some((e) => e.type === 'delta')).toBe(true);
    expect(t.ai.requests[0]!.structured?.name).toBe('brief_target_audience');
    expect(systemOf(t.ai.requests[0])).toContain('CFO Webinar 2027');
    const [session] = await sessionsOf('ewa');
    expect(latestBriefData(session!.messages)?.targetAudience).toBe(response.generatedTargetAudience);
    expect(assistantContentOf(session!.messages.at(-1)!.content)).toMatchObject({
      generatedTargetAudience: response.generatedTargetAudience,
      targetAudienceApplied: true,
    });
  });

  it("proposes a target audience beside the user's own text, which stays in the brief (issue 27)", async () => {
    const sessionId = await startedSession('ewelina');
    const own = 'manufacturing companies, 250–1,000 employees';
    t.ai.enqueue({
      kind: 'object',
      value: { targetAudience: 'Decision makers in mid-size companies.' },
    });
    const response = finalOf(
      await chatStream('ewelina', {
        message: '',
        sessionId,
        generateTargetAudience: true,
        language: 'English',
        currentBriefData: { targetAudience: own },
      }),
    );
    expect(response.generatedTargetAudience).toBe('Decision makers in mid-size companies.');
    expect(response.proposedBriefData?.targetAudience).toBe(own);
    // The model worked from the user's text, and the stored brief keeps it.
    expect(systemOf(t.ai.requests[0])).toContain(own);
    const [session] = await sessionsOf('ewelina');
    expect(latestBriefData(session!.messages)?.targetAudience).toBe(own);
    expect(assistantContentOf(session!.messages.at(-1)!.content)).toMatchObject({
      standardAnswer: 'Decision makers in mid-size companies.',
      generatedTargetAudience: 'Decision makers in mid-size companies.',
      targetAudienceApplied: false,
    });
  });

  it('generates recommendations as a list', async () => {
    const sessionId = await startedSession('filip');
    const recommendations = ['Run LinkedIn ads for 3 weeks before the date.', 'Send two reminder e-mails.'];
    t.ai.enqueue({ kind: 'object', value: { recommendations } });
    const response = await chat('filip', {
      message: '',
      sessionId,
      generateRecommendations: true,
      language: 'English',
    });
    expect(response.recommendations).toEqual(recommendations);
    expect(response.response).toBe(recommendations.map((r) => `- ${r}`).join('\n'));
    const [session] = await sessionsOf('filip');
    expect(assistantContentOf(session!.messages.at(-1)!.content).recommendations).toEqual(recommendations);
  });

  it('refuses actions without a session, two at once, and blank or unstorable messages, naming the field', async () => {
    const cases: [object, string][] = [
      [{ message: '   ' }, 'message'],
      [{ message: '', generateRecommendations: true }, 'sessionId'],
      [
        {
          message: '',
          sessionId: '6d0f1c1e-8a4b-4f5e-9a39-0f8f3c2b1a00',
          generateRecommendations: true,
          confirmJsonResponse: true,
        },
        'confirmJsonResponse',
      ],
      [{ message: 'a\u0000b' }, 'message'],
      [{ message: 'x'.repeat(4_001) }, 'message'],
      [{ message: 'Hi', language: 'French' }, 'language'],
      [{ message: 'Hi', sessionId: 'not-a-uuid' }, 'sessionId'],
      [{ message: 'Hi', currentBriefData: { campaignType: ['Podcast'] } }, 'currentBriefData'],
      [{ message: 'Hi', currentBriefData: { eventDate: '18/03/2027' } }, 'currentBriefData'],
    ];
    for (const [body, field] of cases) {
      const res = await postJson(briefCreatorPaths.chat, 'gosia', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(errorOf(res).issues), JSON.stringify(body)).toContain(field);
    }
    expect(t.ai.requests).toHaveLength(0);
  });
});

import {
  assistantContentOf,
  briefCreatorPaths,
  chatSessionBriefPath,
  chatSessionDetailsSchema,
  chatSessionPath,
  emptyBriefData,
  finishedBriefPath,
  finishedBriefRestorePath,
  finishedBriefsResponseSchema,
  latestBriefData,
  saveSessionBriefResponseSchema,
} from '@gem/contracts/brief-creator';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { errorOf, systemOf } from '../../../test/ai-harness';
import { finalOf, rolesOf, turn, useBriefCreatorHarness } from './brief-creator.test-support';

/**
 * The brief creator's sessions end to end over HTTP (brief-creator.test-support.ts): two sends on
 * one session in turn, a session by its id and the brief saved by hand, every session and brief
 * its owner's alone.
 */

const { t, postJson, chat, chatStream, get, sessionsOf, acceptedBrief, finishedList, send } =
  useBriefCreatorHarness();

describe('one session, two tabs', () => {
  it('serializes two sends on one session: no interleaving, nothing lost', async () => {
    t.ai.enqueue(turn('First.'));
    const { sessionId } = await chat('marta', { message: 'Start', language: 'English' });
    t.ai.reset();

    // The first answer is slow; the second send arrives while it is being written.
    t.ai.enqueue(
      { kind: 'object', value: turn('Answer to A.').value, tokenDelayMs: 20, chunkChars: 4 },
      turn('Answer to B.'),
    );
    const first = chatStream('marta', { message: 'Message A', sessionId, language: 'English' });
    await t.ai.whenRequested(1);
    const second = chatStream('marta', { message: 'Message B', sessionId, language: 'English' });
    const [a, b] = await Promise.all([first, second]);
    expect(finalOf(a).response).toBe('Answer to A.');
    expect(finalOf(b).response).toBe('Answer to B.');

    const [session] = await sessionsOf('marta');
    const texts = session!.messages
      .filter((m) => m.role !== 'system')
      .map((m) => (m.role === 'user' ? m.content : assistantContentOf(m.content).standardAnswer));
    expect(texts).toEqual(['Start', 'First.', 'Message A', 'Answer to A.', 'Message B', 'Answer to B.']);
    // The second turn saw the first one's answer.
    expect(t.ai.requests[1]!.body.messages!.map((m) => m.content)).toContain('Answer to A.');
  });
});

describe('a session by its id, and the brief saved by hand (issue 27)', () => {
  it('answers one open session with its messages, and a finished one with the brief it became', async () => {
    t.ai.enqueue(turn('Noted.', { campaignName: 'Open one' }));
    const { sessionId } = await chat('olga', { message: 'Open one', language: 'English' });
    const open = chatSessionDetailsSchema.parse((await get(chatSessionPath(sessionId), 'olga')).json());
    expect(open).toMatchObject({ id: sessionId, finishedAt: null, finishedBriefId: null });
    expect(rolesOf(open.messages)).toEqual(['user', 'system', 'assistant']);

    const { sessionId: done, briefId } = await acceptedBrief('olga', { campaignName: 'Done one' });
    const finished = chatSessionDetailsSchema.parse((await get(chatSessionPath(done), 'olga')).json());
    expect(finished.finishedAt).not.toBeNull();
    expect(finished.finishedBriefId).toBe(briefId);
    expect(finished.finishedBriefTitle).toBe('Done one');

    for (const id of ['not-a-uuid', '6d0f1c1e-8a4b-4f5e-9a39-0f8f3c2b1a00']) {
      const res = await get(chatSessionPath(id), 'olga');
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).message).toBe('No chat session with this id.');
    }
  });

  it('stores a correction by hand when it changes the brief, and the next turn works from it', async () => {
    t.ai.enqueue(turn('Noted.', { campaignName: 'Saved Campaign', targetAudience: 'CFOs' }));
    const { sessionId, proposedBriefData } = await chat('piotr', {
      message: 'Saved Campaign',
      language: 'English',
    });
    const corrected = {
      ...proposedBriefData!,
      targetAudience: 'manufacturing companies, 250–1,000 employees',
      recommendations: ['Invite a client CFO as a speaker'],
    };
    const saved = await send('PUT', chatSessionBriefPath(sessionId), 'piotr', { briefData: corrected });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saveSessionBriefResponseSchema.parse(saved.json())).toEqual({ changed: true });
    const same = await send('PUT', chatSessionBriefPath(sessionId), 'piotr', { briefData: corrected });
    expect(same.json()).toEqual({ changed: false });

    const [session] = await sessionsOf('piotr');
    expect(rolesOf(session!.messages)).toEqual(['user', 'system', 'assistant', 'system']);
    expect(latestBriefData(session!.messages)).toEqual(corrected);

    t.ai.reset();
    t.ai.enqueue(turn('Got it.'));
    const next = await chat('piotr', { message: 'Anything else?', sessionId, language: 'English' });
    expect(next.proposedBriefData).toEqual(corrected);
    // The recommendations ride in the brief the model is shown; it is not asked to fill them in.
    expect(systemOf(t.ai.requests[0])).toContain('Invite a client CFO as a speaker');
  });

  it('refuses a brief that does not fit, naming the field, and a finished session with 409', async () => {
    t.ai.enqueue(turn('Noted.'));
    const { sessionId } = await chat('roman', { message: 'Hello', language: 'English' });
    const cases: [object, string][] = [
      [{}, 'body.briefData'],
      [{ briefData: { ...emptyBriefData(), campaignType: ['Podcast'] } }, 'body.briefData.campaignType.0'],
      [
        { briefData: { ...emptyBriefData(), recommendations: ['x'.repeat(2_001)] } },
        'body.briefData.recommendations.0',
      ],
      [{ briefData: { ...emptyBriefData(), budget: 'a\u0000b' } }, 'body.briefData.budget'],
    ];
    for (const [body, path] of cases) {
      const res = await send('PUT', chatSessionBriefPath(sessionId), 'roman', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).issues?.map((issue) => issue.path)).toContain(path);
    }
    await chat('roman', { message: '', sessionId, confirmJsonResponse: true });
    const late = await send('PUT', chatSessionBriefPath(sessionId), 'roman', { briefData: emptyBriefData() });
    expect(late.statusCode).toBe(409);
    expect(errorOf(late).message).toBe('This brief was already accepted: it is in Finished Briefs.');
  });

  it('reads a brief stored before the recommendations field as having none', async () => {
    t.ai.enqueue(turn('Noted.', { campaignName: 'Old Brief' }));
    const { sessionId } = await chat('stefan', { message: 'Old Brief', language: 'English' });
    const { recommendations: _dropped, ...old } = { ...emptyBriefData(), campaignName: 'Older Brief' };
    await t.database.db.execute(
      sql`insert into brief_messages (session_id, seq, role, content) values (${sessionId}, 10, 'system', ${JSON.stringify(old)})`,
    );
    t.ai.enqueue(turn('Still here.'));
    const next = await chat('stefan', { message: 'Go on', sessionId, language: 'English' });
    expect(next.proposedBriefData).toMatchObject({ campaignName: 'Older Brief', recommendations: [] });
  });
});

describe('every session and brief is its owner alone', () => {
  it('answers 404 to another user on every brief route', async () => {
    t.ai.enqueue(turn('Noted.', { campaignName: 'Private plan' }));
    const { sessionId } = await chat('owner', { message: 'Secret campaign', language: 'English' });
    t.ai.enqueue(turn('Noted again.'));
    const { sessionId: finishedSession } = await chat('owner', { message: 'Another', language: 'English' });
    const { finishedBriefId } = await chat('owner', {
      message: '',
      sessionId: finishedSession,
      confirmJsonResponse: true,
    });
    t.ai.reset();

    for (const body of [
      { message: 'Let me in', sessionId },
      { message: '', sessionId, generateTargetAudience: true },
      { message: '', sessionId, generateRecommendations: true },
      { message: '', sessionId, confirmJsonResponse: true },
      { message: 'Let me in', sessionId: finishedSession },
    ]) {
      for (const path of [briefCreatorPaths.chat, briefCreatorPaths.chatStream]) {
        const res = await postJson(path, 'intruder', body);
        expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(404);
      }
    }
    const detail = await get(finishedBriefPath(finishedBriefId!), 'intruder');
    expect(detail.statusCode).toBe(404);
    expect(errorOf(detail).message).toBe('Brief not found.');
    // Issue 27's routes: a session by id, the brief saved by hand, start from, delete and undo.
    for (const id of [sessionId, finishedSession]) {
      expect((await get(chatSessionPath(id), 'intruder')).statusCode).toBe(404);
      const save = await send('PUT', chatSessionBriefPath(id), 'intruder', { briefData: emptyBriefData() });
      expect(save.statusCode).toBe(404);
    }
    const start = await send('POST', briefCreatorPaths.chatSessions, 'intruder', {
      fromBriefId: finishedBriefId,
    });
    expect(start.statusCode).toBe(404);
    expect(errorOf(start).message).toBe('Brief not found.');
    const removal = await send('DELETE', finishedBriefPath(finishedBriefId!), 'intruder');
    expect(removal.statusCode).toBe(404);
    expect(errorOf(removal).message).toBe('Brief not found.');
    // The owner deletes it; the intruder cannot bring it back either.
    expect((await send('DELETE', finishedBriefPath(finishedBriefId!), 'owner')).statusCode).toBe(200);
    expect((await send('POST', finishedBriefRestorePath(finishedBriefId!), 'intruder')).statusCode).toBe(404);
    expect((await send('POST', finishedBriefRestorePath(finishedBriefId!), 'owner')).statusCode).toBe(200);
    expect(await sessionsOf('intruder')).toEqual([]);
    expect((await get(finishedBriefPath('no-such-brief'), 'owner')).statusCode).toBe(404);
    expect((await get(finishedBriefPath('6d0f1c1e-8a4b-4f5e-9a39-0f8f3c2b1a00'), 'owner')).statusCode).toBe(
      404,
    );
    expect(await sessionsOf('intruder')).toEqual([]);
    const list = finishedBriefsResponseSchema.parse(
      (await get(briefCreatorPaths.finishedBriefs, 'intruder')).json(),
    );
    expect(list.briefs).toEqual([]);
    // Nothing was stored in the owner's session, and no model was asked.
    expect(t.ai.requests).toHaveLength(0);
    const [own] = await sessionsOf('owner');
    expect(own!.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Secret campaign']);
    expect(rolesOf(own!.messages)).toEqual(['user', 'system', 'assistant']);
    expect((await finishedList('owner')).map((b) => b.id)).toEqual([finishedBriefId]);
  });
});

import {
  briefCreatorPaths,
  chatSessionDetailsSchema,
  chatSessionPath,
  chatSessionSchema,
  deletedFinishedBriefSchema,
  emptyBriefData,
  finishedBriefPath,
  finishedBriefRestorePath,
  finishedBriefSchema,
  latestBriefData,
} from '@gem/contracts/brief-creator';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { errorOf, systemOf } from '../../../test/ai-harness';
import { finishedBriefs } from '../../db/schema/index';
import { filledBrief, rolesOf, turn, useBriefCreatorHarness } from './brief-creator.test-support';

/**
 * Finished Briefs end to end over HTTP (brief-creator.test-support.ts): search and filter, delete
 * and undo, and a new session started from a finished brief.
 */

const { t, chat, get, sessionsOf, acceptedBrief, finishedList, send } = useBriefCreatorHarness();

describe('Finished Briefs: search, filter, delete and undo, start from a brief (issue 27)', () => {
  it('searches by name (case and accents aside) and filters by campaign type', async () => {
    await acceptedBrief('tola', { campaignName: 'Łódź Webinar', campaignType: ['Webinar'] });
    await acceptedBrief('tola', { campaignName: 'Spring Report', campaignType: ['Report', 'Email'] });
    await acceptedBrief('tola', { campaignName: 'Summer webinar series', campaignType: ['Event'] });
    const titles = async (query: string) => (await finishedList('tola', query)).map((b) => b.title);

    expect(await titles('')).toEqual(['Summer webinar series', 'Spring Report', 'Łódź Webinar']);
    expect(await titles('?q=WEBINAR')).toEqual(['Summer webinar series', 'Łódź Webinar']);
    expect(await titles('?q=lodz')).toEqual(['Łódź Webinar']);
    expect(await titles('?q=%20%20')).toHaveLength(3);
    expect(await titles('?campaignType=Email')).toEqual(['Spring Report']);
    expect(await titles('?q=webinar&campaignType=Webinar')).toEqual(['Łódź Webinar']);
    expect(await titles('?q=nothing-like-it')).toEqual([]);
    // A % or _ is text, not a pattern.
    expect(await titles('?q=%25')).toEqual([]);
  });

  it('refuses a campaign type off the list and a search that is too long, naming them', async () => {
    for (const [query, path] of [
      ['?campaignType=Podcast', 'querystring.campaignType'],
      [`?q=${'a'.repeat(201)}`, 'querystring.q'],
    ] as const) {
      const res = await get(`${briefCreatorPaths.finishedBriefs}${query}`, 'tola');
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).issues?.map((issue) => issue.path)).toContain(path);
    }
  });

  it('deletes a brief (recorded with who and when), leaves it out everywhere, and brings it back on undo', async () => {
    const { briefId, sessionId } = await acceptedBrief('urszula', { campaignName: 'To delete' });
    const { briefId: kept } = await acceptedBrief('urszula', { campaignName: 'To keep' });

    const deleted = await send('DELETE', finishedBriefPath(briefId), 'urszula');
    expect(deleted.statusCode, deleted.body).toBe(200);
    const { deletedAt } = deletedFinishedBriefSchema.parse(deleted.json());
    expect((await finishedList('urszula')).map((b) => b.id)).toEqual([kept]);
    expect((await finishedList('urszula', '?q=delete')).map((b) => b.id)).toEqual([]);
    expect((await get(finishedBriefPath(briefId), 'urszula')).statusCode).toBe(404);
    const session = chatSessionDetailsSchema.parse((await get(chatSessionPath(sessionId), 'urszula')).json());
    expect(session.finishedBriefId).toBeNull();
    expect(
      (await send('POST', briefCreatorPaths.chatSessions, 'urszula', { fromBriefId: briefId })).statusCode,
    ).toBe(404);
    // Deleting it again finds nothing to delete.
    expect((await send('DELETE', finishedBriefPath(briefId), 'urszula')).statusCode).toBe(404);

    // The record: the row stays, with who deleted it and when.
    const [row] = await t.database.db.select().from(finishedBriefs).where(eq(finishedBriefs.id, briefId));
    expect(row?.deletedBy).toBe(row?.userId);
    expect(row?.deletedAt?.toISOString()).toBe(deletedAt);

    const restored = await send('POST', finishedBriefRestorePath(briefId), 'urszula');
    expect(restored.statusCode, restored.body).toBe(200);
    expect(finishedBriefSchema.parse(restored.json())).toMatchObject({ id: briefId, title: 'To delete' });
    expect((await finishedList('urszula')).map((b) => b.id)).toEqual([kept, briefId]);
    const [back] = await t.database.db.select().from(finishedBriefs).where(eq(finishedBriefs.id, briefId));
    expect(back).toMatchObject({ deletedAt: null, deletedBy: null });
    // Undo twice is harmless.
    expect((await send('POST', finishedBriefRestorePath(briefId), 'urszula')).statusCode).toBe(200);
    for (const id of ['not-a-uuid', '6d0f1c1e-8a4b-4f5e-9a39-0f8f3c2b1a00']) {
      expect((await send('DELETE', finishedBriefPath(id), 'urszula')).statusCode).toBe(404);
      expect((await send('POST', finishedBriefRestorePath(id), 'urszula')).statusCode).toBe(404);
    }
  });

  it("starts a new session seeded with a finished brief's data, which the chat goes on from", async () => {
    const data = { ...filledBrief, targetAudience: 'CFOs of mid-size manufacturers.' };
    const { briefId, sessionId: original } = await acceptedBrief('wanda', data);
    const started = await send('POST', briefCreatorPaths.chatSessions, 'wanda', { fromBriefId: briefId });
    expect(started.statusCode, started.body).toBe(201);
    const session = chatSessionSchema.parse(started.json());
    expect(session.id).not.toBe(original);
    expect(rolesOf(session.messages)).toEqual(['system']);
    expect(latestBriefData(session.messages)).toEqual({ ...emptyBriefData(), ...data });
    expect((await sessionsOf('wanda')).map((s) => s.id)).toEqual([session.id]);

    t.ai.reset();
    t.ai.enqueue(turn('A new date, then?', { eventDate: '2028-03-16' }));
    const next = await chat('wanda', {
      message: 'Same again next year.',
      sessionId: session.id,
      language: 'English',
    });
    expect(next.proposedBriefData).toMatchObject({ ...data, eventDate: '2028-03-16' });
    expect(systemOf(t.ai.requests[0])).toContain('CFO Webinar 2027');
    // The finished brief is as it was.
    const brief = finishedBriefSchema.parse((await get(finishedBriefPath(briefId), 'wanda')).json());
    expect(JSON.parse(brief.briefDataJson)).toMatchObject({ eventDate: '2027-03-18' });

    for (const [body, path] of [
      [{}, 'body.fromBriefId'],
      [{ fromBriefId: 'nope' }, 'body.fromBriefId'],
    ] as const) {
      const res = await send('POST', briefCreatorPaths.chatSessions, 'wanda', body);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).issues?.map((issue) => issue.path)).toContain(path);
    }
  });
});

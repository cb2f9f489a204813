import { randomUUID } from 'node:crypto';
import {
  briefDataOfSystemMessage,
  type BriefMessage,
  type ChatSession,
  type DeletedFinishedBrief,
  type FinishedBrief,
  type FinishedBriefsQuery,
  type FinishedBriefsResponse,
} from '@gem/contracts/brief-creator';
import { and, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { finishedBriefs } from '../../db/schema/index';
import { AppError } from '../../lib/app-error';
import { fold } from '../../lib/search-text';
import { uuidPattern, type BriefStore } from './brief-creator.store';

/**
 * The user's finished briefs (issue 12, spec §2 Finished Briefs; issue 27): listed, searched by
 * name and filtered by campaign type, opened, deleted (who and when kept on the row, for Undo and
 * the record) and restored, and started from ('Start from this brief').
 */

export const BRIEF_NOT_FOUND = 'Brief not found.';

/** The most finished briefs listed. */
const FINISHED_LISTED = 100;

type FinishedRow = typeof finishedBriefs.$inferSelect;

function toFinished(row: FinishedRow, messages: BriefMessage[]): FinishedBrief {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    messages,
    briefDataJson: JSON.stringify(row.briefData),
    sessionId: row.sessionId,
  };
}

export function createFinishedBriefs({ db, store }: { db: Db; store: BriefStore }) {
  /** The user's finished brief that is not deleted; 404 otherwise (anyone else's, or none). */
  async function ownedFinished(userId: string, briefId: string) {
    if (!uuidPattern.test(briefId)) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
    const [row] = await db
      .select()
      .from(finishedBriefs)
      .where(
        and(
          eq(finishedBriefs.id, briefId),
          eq(finishedBriefs.userId, userId),
          isNull(finishedBriefs.deletedAt),
        ),
      );
    if (!row) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
    return row;
  }

  async function withItsMessages(row: FinishedRow): Promise<FinishedBrief> {
    const messages = await store.messagesOf([row.sessionId]);
    return toFinished(row, messages.get(row.sessionId) ?? []);
  }

  return {
    /** 'Start from this brief': a new session whose brief is the finished brief's data. */
    async startFromBrief(userId: string, briefId: string): Promise<ChatSession> {
      const brief = await ownedFinished(userId, briefId);
      const data = briefDataOfSystemMessage(JSON.stringify(brief.briefData));
      if (!data) throw new AppError(500, 'internal_error', 'The data of this brief cannot be read.');
      const sessionId = randomUUID();
      const session = await db.transaction(async (tx) => {
        const created = await store.create(tx, { sessionId, userId });
        await store.append(tx, sessionId, [{ role: 'system', content: JSON.stringify(data) }]);
        return created;
      });
      return store.withMessages(session);
    },

    /**
     * The user's finished briefs that are not deleted, newest first: those whose name holds `q`
     * (case and accents folded, as GEM's searches fold them) and whose types include `campaignType`.
     */
    async finishedBriefs(userId: string, query: FinishedBriefsQuery = {}): Promise<FinishedBriefsResponse> {
      const conditions: SQL[] = [eq(finishedBriefs.userId, userId), isNull(finishedBriefs.deletedAt)];
      if (query.campaignType) {
        conditions.push(
          sql`${finishedBriefs.briefData} -> 'campaignType' @> ${JSON.stringify([query.campaignType])}::jsonb`,
        );
      }
      const newestFirst = [desc(finishedBriefs.createdAt), desc(finishedBriefs.id)];
      const name = fold(query.q ?? '').trim();
      let rows: FinishedRow[];
      if (name === '') {
        rows = await db
          .select()
          .from(finishedBriefs)
          .where(and(...conditions))
          .orderBy(...newestFirst)
          .limit(FINISHED_LISTED);
      } else {
        // Folding is done here, like every search's query (lib/search-text): only titles are read
        // for it, then the page's briefs.
        const titles = await db
          .select({ id: finishedBriefs.id, title: finishedBriefs.title })
          .from(finishedBriefs)
          .where(and(...conditions))
          .orderBy(...newestFirst);
        const ids = titles
          .filter((row) => fold(row.title).includes(name))
          .slice(0, FINISHED_LISTED)
          .map((row) => row.id);
        rows =
          ids.length === 0
            ? []
            : await db
                .select()
                .from(finishedBriefs)
                .where(inArray(finishedBriefs.id, ids))
                .orderBy(...newestFirst);
      }
      const messages = await store.messagesOf(rows.map((r) => r.sessionId));
      return { briefs: rows.map((row) => toFinished(row, messages.get(row.sessionId) ?? [])) };
    },

    /** One finished brief of the user's; 404 for anyone else's, a deleted one, or none. */
    async finishedBrief(userId: string, briefId: string): Promise<FinishedBrief> {
      return withItsMessages(await ownedFinished(userId, briefId));
    },

    /** Deletes a finished brief of the user's: who and when are kept on the row, for Undo and the record. */
    async deleteFinishedBrief(userId: string, briefId: string): Promise<DeletedFinishedBrief> {
      if (!uuidPattern.test(briefId)) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
      const [row] = await db
        .update(finishedBriefs)
        .set({ deletedAt: sql`now()`, deletedBy: userId })
        .where(
          and(
            eq(finishedBriefs.id, briefId),
            eq(finishedBriefs.userId, userId),
            isNull(finishedBriefs.deletedAt),
          ),
        )
        .returning({ id: finishedBriefs.id, deletedAt: finishedBriefs.deletedAt });
      if (!row?.deletedAt) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
      return { id: row.id, deletedAt: row.deletedAt.toISOString() };
    },

    /** Undo: a deleted finished brief of the user's back in the lists (one that is not deleted stays). */
    async restoreFinishedBrief(userId: string, briefId: string): Promise<FinishedBrief> {
      if (!uuidPattern.test(briefId)) throw new AppError(404, 'not_found', BRIEF_NOT_FOUND);
      const [row] = await db
        .update(finishedBriefs)
        .set({ deletedAt: null, deletedBy: null })
        .where(
          and(
            eq(finishedBriefs.id, briefId),
            eq(finishedBriefs.userId, userId),
            isNotNull(finishedBriefs.deletedAt),
          ),
        )
        .returning();
      return withItsMessages(row ?? (await ownedFinished(userId, briefId)));
    },
  };
}

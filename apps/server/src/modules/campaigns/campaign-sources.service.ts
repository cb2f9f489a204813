import {
  CAMPAIGN_SOURCES_MAX,
  SOURCE_SUMMARY_MAX,
  type AddCampaignSourceRequest,
  type CampaignSource,
} from '@gem/contracts/campaign-sources';
import { cutAtGrapheme } from '@gem/contracts/text-rules';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { campaignSources } from '../../db/schema/index';
import { AppError } from '../../lib/app-error';
import { campaignFor, isUuid } from './campaigns.access';
import { peopleById, recordActivity, someone } from './campaigns.records';

/**
 * A campaign's sources (issue 29): Market Research items and competitor search results brought
 * in with 'Use in…', kept as they were when added. An item must be one GEM stores; a result's
 * link must be a page of a competitor GEM follows: anything else is a 400 naming the field.
 */

/** How createServices hands over what the other modules know (modules never import each other). */
export type SourceLookups = {
  /** A stored Market Research item by id, or null. */
  marketResearchItem(id: string): Promise<{ title: string; url: string; contentText: string } | null>;
  /** Whether a link is a page competitor search shows (indexed, or under a competitor's site). */
  isCompetitorPage(link: string): Promise<boolean>;
};

type SourceRow = typeof campaignSources.$inferSelect;

export type CampaignSourcesDeps = { db: Db; lookups: SourceLookups };

export function createCampaignSources({ db, lookups }: CampaignSourcesDeps) {
  async function shown(rows: SourceRow[]): Promise<CampaignSource[]> {
    const known = await peopleById(
      db,
      rows.map((row) => row.addedBy),
    );
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      title: row.title,
      url: row.url,
      summary: row.summary,
      addedBy: someone(row.addedBy, known),
      addedAt: row.addedAt.toISOString(),
    }));
  }

  /** The source as it will be kept: read from the store, or checked as a competitor's page. */
  async function resolve(request: AddCampaignSourceRequest) {
    if (request.kind === 'market-research') {
      const item = await lookups.marketResearchItem(request.itemId);
      if (!item) {
        throw AppError.invalid([
          { path: 'body.itemId', message: `No Market Research item has the id ${request.itemId}.` },
        ]);
      }
      return { ref: request.itemId, title: item.title, url: item.url, summary: item.contentText };
    }
    if (!(await lookups.isCompetitorPage(request.link))) {
      throw AppError.invalid([
        {
          path: 'body.link',
          message:
            'This link is not a page of a competitor GEM follows: add results of the competitor search.',
        },
      ]);
    }
    return { ref: request.link, title: request.title, url: request.link, summary: request.snippet };
  }

  return {
    /** The campaign's sources, oldest first. */
    async list(userId: string, campaignId: string): Promise<{ sources: CampaignSource[] }> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'read');
      return { sources: await shown(await rowsOf(db, campaign.id)) };
    },

    /** Adds one (owner or editor); one added before is found again, not doubled. */
    async add(
      userId: string,
      campaignId: string,
      request: AddCampaignSourceRequest,
    ): Promise<CampaignSource> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      const source = await resolve(request);
      const added = await db.transaction(async (tx) => {
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(campaignSources)
          .where(eq(campaignSources.campaignId, campaign.id));
        const [row] = await tx
          .insert(campaignSources)
          .values({
            campaignId: campaign.id,
            kind: request.kind,
            ...source,
            summary: cutAtGrapheme(source.summary, SOURCE_SUMMARY_MAX),
            addedBy: userId,
          })
          .onConflictDoNothing()
          .returning();
        if (!row) return null;
        if (n >= CAMPAIGN_SOURCES_MAX) {
          throw new AppError(
            400,
            'validation_failed',
            `A campaign keeps at most ${CAMPAIGN_SOURCES_MAX} sources. Remove one first.`,
          );
        }
        await recordActivity(tx, campaign.id, userId, 'source-added', source.title);
        return row;
      });
      const row =
        added ?? (await rowsOf(db, campaign.id)).find((r) => r.kind === request.kind && r.ref === source.ref);
      const [shownSource] = await shown([row!]);
      return shownSource!;
    },

    /** Removes one (owner or editor); one already gone is gone. */
    async remove(
      userId: string,
      campaignId: string,
      sourceId: string,
    ): Promise<{ sources: CampaignSource[] }> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      if (isUuid(sourceId)) {
        await db.transaction(async (tx) => {
          const [removed] = await tx
            .delete(campaignSources)
            .where(and(eq(campaignSources.campaignId, campaign.id), eq(campaignSources.id, sourceId)))
            .returning();
          if (removed) await recordActivity(tx, campaign.id, userId, 'source-removed', removed.title);
        });
      }
      return { sources: await shown(await rowsOf(db, campaign.id)) };
    },
  };
}

/** A campaign's sources, oldest first: what generation gives the model. */
export async function rowsOf(db: Db, campaignId: string): Promise<SourceRow[]> {
  return db
    .select()
    .from(campaignSources)
    .where(eq(campaignSources.campaignId, campaignId))
    .orderBy(asc(campaignSources.addedAt), asc(campaignSources.id));
}

export type CampaignSources = ReturnType<typeof createCampaignSources>;

import { briefDataSchema, type BriefData } from '@gem/contracts/brief-creator';
import {
  CAMPAIGN_ACTIVITY_LISTED,
  CAMPAIGN_NAME_MAX,
  CAMPAIGNS_LISTED,
  campaignStatusLabels,
  type Campaign,
  type CampaignAction,
  type CampaignActivity,
  type CampaignBriefVersion,
  type CampaignPerson,
  type CampaignRole,
  type CampaignSummary,
  type CampaignsQuery,
  type UpdateCampaignRequest,
} from '@gem/contracts/campaigns';
import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  campaignActivity,
  campaignBriefVersions,
  campaignEditors,
  campaigns,
  users,
} from '../../db/schema/index';
import { AppError } from '../../lib/app-error';
import { fold } from '../../lib/search-text';
import { campaignFor, isUuid, roleOf, type CampaignRow } from './campaigns.access';
import { peopleById, personName, qrOf, recordActivity, sameQr, someone } from './campaigns.records';

/**
 * Campaigns (issue 29): opened from a finished brief, listed with search and filters, the brief
 * kept in versions (a save on an older version is a 409, never an overwrite), renamed, moved
 * through its statuses, shared with the team; every change recorded in the same transaction.
 */

/** A finished brief of the user's, as the brief creator hands it over (createServices). */
export type FinishedBriefReader = (
  userId: string,
  briefId: string,
) => Promise<{ id: string; title: string; briefDataJson: string }>;

/** The CRM's campaign by id, null when it has none (the Crm port's getCampaign). */
export type CrmCampaignLookup = (campaignId: string) => Promise<{ id: string; name: string } | null>;

export type CampaignsDeps = { db: Db; finishedBrief: FinishedBriefReader; crmCampaign: CrmCampaignLookup };

export function createCampaigns({ db, finishedBrief, crmCampaign }: CampaignsDeps) {
  const people = (ids: (string | null)[]) => peopleById(db, ids);

  async function latestBrief(campaign: CampaignRow): Promise<BriefData> {
    const [row] = await db
      .select({ briefData: campaignBriefVersions.briefData })
      .from(campaignBriefVersions)
      .where(
        and(
          eq(campaignBriefVersions.campaignId, campaign.id),
          eq(campaignBriefVersions.version, campaign.briefVersion),
        ),
      );
    return briefDataSchema.parse(row?.briefData);
  }

  function summary(
    campaign: CampaignRow,
    brief: BriefData,
    role: CampaignRole,
    owner: CampaignPerson,
  ): CampaignSummary {
    return {
      id: campaign.id,
      name: campaign.name,
      campaignType: brief.campaignType,
      status: campaign.status,
      sharing: campaign.sharing,
      owner,
      role,
      primaryObjective: brief.primaryObjective,
      channels: brief.channels,
      createdAt: campaign.createdAt.toISOString(),
      updatedAt: campaign.updatedAt.toISOString(),
    };
  }

  async function details(campaign: CampaignRow, role: CampaignRole): Promise<Campaign> {
    const editorRows = await db
      .select({ userId: campaignEditors.userId })
      .from(campaignEditors)
      .where(eq(campaignEditors.campaignId, campaign.id))
      .orderBy(campaignEditors.addedAt);
    const known = await people([campaign.ownerId, ...editorRows.map((e) => e.userId)]);
    const brief = await latestBrief(campaign);
    return {
      ...summary(campaign, brief, role, someone(campaign.ownerId, known)),
      finishedBriefId: campaign.finishedBriefId,
      brief,
      briefVersion: campaign.briefVersion,
      editors: editorRows.map((e) => someone(e.userId, known)),
      crmCampaignId: campaign.crmCampaignId,
      landingUrl: campaign.landingUrl,
      qr: qrOf(campaign),
      duplicatedFrom: campaign.duplicatedFromId,
    };
  }

  return {
    /**
     * The campaigns the user may see (their own, those they edit, those shared with the team),
     * most recently changed first, filtered by name (case and accents folded), status, owner and
     * campaign type.
     */
    async list(userId: string, query: CampaignsQuery = {}): Promise<{ campaigns: CampaignSummary[] }> {
      const editing = db
        .select({ id: campaignEditors.campaignId })
        .from(campaignEditors)
        .where(eq(campaignEditors.userId, userId));
      const visible = or(
        eq(campaigns.ownerId, userId),
        eq(campaigns.sharing, 'team'),
        inArray(campaigns.id, editing),
      );
      const conditions: (SQL | undefined)[] = [visible];
      if (query.status) conditions.push(eq(campaigns.status, query.status));
      if (query.owner === 'me') conditions.push(eq(campaigns.ownerId, userId));
      if (query.owner === 'others') conditions.push(sql`${campaigns.ownerId} <> ${userId}`);
      if (query.campaignType) {
        conditions.push(sql`exists (
          select 1 from ${campaignBriefVersions} v
          where v.campaign_id = ${campaigns.id} and v.version = ${campaigns.briefVersion}
            and v.brief_data -> 'campaignType' @> ${JSON.stringify([query.campaignType])}::jsonb)`);
      }
      const rows = await db
        .select({
          campaign: campaigns,
          editor: campaignEditors.userId,
          brief: campaignBriefVersions.briefData,
        })
        .from(campaigns)
        .leftJoin(
          campaignEditors,
          and(eq(campaignEditors.campaignId, campaigns.id), eq(campaignEditors.userId, userId)),
        )
        .innerJoin(
          campaignBriefVersions,
          and(
            eq(campaignBriefVersions.campaignId, campaigns.id),
            eq(campaignBriefVersions.version, campaigns.briefVersion),
          ),
        )
        .where(and(...conditions))
        .orderBy(desc(campaigns.updatedAt), desc(campaigns.id));
      // Folding is done here, like every search's query (lib/search-text).
      const name = fold(query.q ?? '').trim();
      const matching = (
        name === '' ? rows : rows.filter((row) => fold(row.campaign.name).includes(name))
      ).slice(0, CAMPAIGNS_LISTED);
      const known = await people(matching.map((row) => row.campaign.ownerId));
      return {
        campaigns: matching.map((row) =>
          summary(
            row.campaign,
            briefDataSchema.parse(row.brief),
            roleOf(row.campaign, userId, row.editor !== null) ?? 'reader',
            someone(row.campaign.ownerId, known),
          ),
        ),
      };
    },

    /**
     * Opens a campaign from a finished brief of the user's: its name and brief (version 1) are
     * the brief's. The user's campaign of that brief when there is one already (created: false).
     */
    async create(userId: string, finishedBriefId: string): Promise<{ campaign: Campaign; created: boolean }> {
      const source = await finishedBrief(userId, finishedBriefId);
      const brief = briefDataSchema.parse(JSON.parse(source.briefDataJson));
      const name = brief.campaignName.trim() || source.title.trim() || 'Untitled campaign';
      const made = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(campaigns)
          .values({ ownerId: userId, finishedBriefId: source.id, name })
          .onConflictDoNothing({ target: [campaigns.ownerId, campaigns.finishedBriefId] })
          .returning();
        if (!row) return null;
        await tx
          .insert(campaignBriefVersions)
          .values({ campaignId: row.id, version: 1, briefData: brief, authorId: userId });
        await recordActivity(tx, row.id, userId, 'created', `From the finished brief “${source.title}”`);
        return row;
      });
      if (made) return { campaign: await details(made, 'owner'), created: true };
      const [existing] = await db
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.ownerId, userId), eq(campaigns.finishedBriefId, source.id)));
      if (!existing) throw new AppError(409, 'conflict', 'The campaign is being created. Please try again.');
      return { campaign: await details(existing, 'owner'), created: false };
    },

    /** One campaign the user may see. */
    async get(userId: string, campaignId: string): Promise<Campaign> {
      const { campaign, role } = await campaignFor(db, userId, campaignId, 'read');
      return details(campaign, role);
    },

    /** Renames it or moves its status (owner or editor), or shares it (owner only). */
    async update(userId: string, campaignId: string, change: UpdateCampaignRequest): Promise<Campaign> {
      const { campaign, role } = await campaignFor(db, userId, campaignId, change.sharing ? 'own' : 'edit');
      const crm = change.crmCampaignId ? await crmCampaign(change.crmCampaignId) : null;
      if (change.crmCampaignId && !crm) {
        throw new AppError(
          400,
          'validation_failed',
          `The CRM has no campaign with the id ${change.crmCampaignId}.`,
        );
      }
      const { qr, ...columns } = change;
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(campaigns)
          .set({ ...columns, ...(qr !== undefined ? { qrSettings: qr } : {}), updatedAt: sql`now()` })
          .where(eq(campaigns.id, campaign.id))
          .returning();
        if (change.name !== undefined && change.name !== campaign.name) {
          await recordActivity(tx, campaign.id, userId, 'renamed', `“${campaign.name}” → “${change.name}”`);
        }
        if (change.status && change.status !== campaign.status) {
          const from = campaignStatusLabels[campaign.status];
          await recordActivity(
            tx,
            campaign.id,
            userId,
            'status-changed',
            `${from} → ${campaignStatusLabels[change.status]}`,
          );
        }
        if (change.crmCampaignId !== undefined && change.crmCampaignId !== campaign.crmCampaignId) {
          const detail = crm ? `${crm.name} (${crm.id})` : 'Taken off';
          await recordActivity(tx, campaign.id, userId, 'crm-campaign-set', detail);
        }
        if (change.landingUrl !== undefined && change.landingUrl !== campaign.landingUrl) {
          await recordActivity(tx, campaign.id, userId, 'landing-page-set', change.landingUrl ?? 'Taken off');
        }
        if (qr !== undefined && !sameQr(qr, qrOf(campaign))) {
          const detail = qr
            ? `${qr.size} pt, padding ${qr.padding} pt, ${qr.dpi} DPI`
            : 'Back to the defaults';
          await recordActivity(tx, campaign.id, userId, 'qr-code-set', detail);
        }
        if (change.sharing && change.sharing !== campaign.sharing) {
          const to = change.sharing === 'team' ? 'Shared with the team (read only)' : 'Private';
          await recordActivity(tx, campaign.id, userId, 'sharing-changed', to);
        }
        return row!;
      });
      return details(updated, role);
    },

    /**
     * The brief as changed, as its next version. The change must be made on the newest version:
     * a save on an older one (someone saved in between) is a 409, and the newest stays.
     */
    async saveBrief(
      userId: string,
      campaignId: string,
      { brief, baseVersion }: { brief: BriefData; baseVersion: number },
    ): Promise<Campaign> {
      const { campaign, role } = await campaignFor(db, userId, campaignId, 'edit');
      const saved = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(campaigns)
          .set({ briefVersion: baseVersion + 1, updatedAt: sql`now()` })
          .where(and(eq(campaigns.id, campaign.id), eq(campaigns.briefVersion, baseVersion)))
          .returning();
        if (!row) return null;
        await tx
          .insert(campaignBriefVersions)
          .values({ campaignId: campaign.id, version: row.briefVersion, briefData: brief, authorId: userId });
        await recordActivity(tx, campaign.id, userId, 'brief-saved', `Brief version ${row.briefVersion}`);
        return row;
      });
      if (!saved) {
        throw new AppError(
          409,
          'conflict',
          'Someone saved this brief after you opened it. Your changes are still in the form: open the newest version, then save them again.',
        );
      }
      return details(saved, role);
    },

    /**
     * Adds an editor by the e-mail address they signed in with (the owner only). Someone who has
     * never signed in to GEM cannot be added yet: a 400 says so.
     */
    async addEditor(userId: string, campaignId: string, email: string): Promise<Campaign> {
      const { campaign, role } = await campaignFor(db, userId, campaignId, 'own');
      const [person] = await db
        .select({ id: users.id, displayName: users.displayName, email: users.email })
        .from(users)
        .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
        .limit(1);
      if (!person) {
        throw new AppError(
          400,
          'validation_failed',
          `No one has signed in to GEM as ${email.trim()} yet. Ask them to sign in once, then add them.`,
        );
      }
      if (person.id === campaign.ownerId) {
        throw new AppError(400, 'validation_failed', 'You own this campaign already: add someone else.');
      }
      await db.transaction(async (tx) => {
        const added = await tx
          .insert(campaignEditors)
          .values({ campaignId: campaign.id, userId: person.id })
          .onConflictDoNothing()
          .returning();
        if (added.length > 0)
          await recordActivity(tx, campaign.id, userId, 'editor-added', personName(person));
      });
      return details(campaign, role);
    },

    /** Removes an editor (the owner only); one who is not an editor is already gone. */
    async removeEditor(userId: string, campaignId: string, editorId: string): Promise<Campaign> {
      const { campaign, role } = await campaignFor(db, userId, campaignId, 'own');
      const known = await people(isUuid(editorId) ? [editorId] : []);
      await db.transaction(async (tx) => {
        if (!isUuid(editorId)) return;
        const removed = await tx
          .delete(campaignEditors)
          .where(and(eq(campaignEditors.campaignId, campaign.id), eq(campaignEditors.userId, editorId)))
          .returning();
        if (removed.length > 0)
          await recordActivity(tx, campaign.id, userId, 'editor-removed', someone(editorId, known).name);
      });
      return details(campaign, role);
    },

    /**
     * A copy of a campaign the user may see, as their own and private: its name with "(copy)",
     * its brief's newest version as version 1, its CRM campaign and landing page; no editors.
     */
    async duplicate(userId: string, campaignId: string): Promise<Campaign> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'read');
      const brief = await latestBrief(campaign);
      const copy = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(campaigns)
          .values({
            ownerId: userId,
            name: `${campaign.name} (copy)`.slice(0, CAMPAIGN_NAME_MAX),
            crmCampaignId: campaign.crmCampaignId,
            landingUrl: campaign.landingUrl,
            qrSettings: campaign.qrSettings,
            duplicatedFromId: campaign.id,
          })
          .returning();
        await tx
          .insert(campaignBriefVersions)
          .values({ campaignId: row!.id, version: 1, briefData: brief, authorId: userId });
        await recordActivity(tx, row!.id, userId, 'duplicated', `A copy of “${campaign.name}”`);
        return row!;
      });
      return details(copy, 'owner');
    },

    /** Every version of the brief, newest first. */
    async briefVersions(userId: string, campaignId: string): Promise<{ versions: CampaignBriefVersion[] }> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'read');
      const rows = await db
        .select()
        .from(campaignBriefVersions)
        .where(eq(campaignBriefVersions.campaignId, campaign.id))
        .orderBy(desc(campaignBriefVersions.version));
      const known = await people(rows.map((row) => row.authorId));
      return {
        versions: rows.map((row) => ({
          version: row.version,
          brief: briefDataSchema.parse(row.briefData),
          author: someone(row.authorId, known),
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },

    /** What happened to it, newest first. */
    async activity(userId: string, campaignId: string): Promise<{ activity: CampaignActivity[] }> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'read');
      const rows = await db
        .select()
        .from(campaignActivity)
        .where(eq(campaignActivity.campaignId, campaign.id))
        .orderBy(desc(campaignActivity.at), desc(campaignActivity.id))
        .limit(CAMPAIGN_ACTIVITY_LISTED);
      const known = await people(rows.map((row) => row.actorId));
      return {
        activity: rows.map((row) => ({
          id: row.id,
          action: row.action as CampaignAction,
          actor: someone(row.actorId, known),
          detail: row.detail,
          at: row.at.toISOString(),
        })),
      };
    },
  };
}

export type Campaigns = ReturnType<typeof createCampaigns>;

import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { finishedBriefs } from './brief-creator';
import { users } from './users';

/**
 * Campaigns (issue 29): one per finished brief a marketer opened as a campaign. Its brief lives
 * in versions (the newest is the brief); `brief_version` is the newest one's number, the lock a
 * save compares against, so two editors never overwrite each other.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    finishedBriefId: uuid('finished_brief_id').references(() => finishedBriefs.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    status: text('status', { enum: ['planning', 'active', 'completed', 'archived'] })
      .notNull()
      .default('planning'),
    sharing: text('sharing', { enum: ['private', 'team'] })
      .notNull()
      .default('private'),
    briefVersion: integer('brief_version').notNull().default(1),
    /** The CRM campaign its audience is built for (checked against the CRM when set). */
    crmCampaignId: text('crm_campaign_id'),
    /** Where its links lead: the landing page its tracked links and QR code carry. */
    landingUrl: text('landing_url'),
    /** Its QR code's settings (the QR generator's size, padding and DPI); null: the pack's defaults. */
    qrSettings: jsonb('qr_settings'),
    /** The campaign this one was copied from ('Duplicate'). */
    duplicatedFromId: uuid('duplicated_from_id').references((): AnyPgColumn => campaigns.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_owner_updated_idx').on(t.ownerId, t.updatedAt.desc()),
    // One campaign per finished brief and owner: opening it again finds the one there is.
    uniqueIndex('campaigns_owner_brief_key').on(t.ownerId, t.finishedBriefId),
    index('campaigns_team_updated_idx')
      .on(t.updatedAt.desc())
      .where(sql`${t.sharing} = 'team'`),
    check('campaigns_status_check', sql`${t.status} in ('planning', 'active', 'completed', 'archived')`),
    check('campaigns_sharing_check', sql`${t.sharing} in ('private', 'team')`),
  ],
);

/** Every version of a campaign's brief (contracts' BriefData), from 1. */
export const campaignBriefVersions = pgTable(
  'campaign_brief_versions',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    briefData: jsonb('brief_data').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.version] })],
);

/** The people the owner added as editors. */
export const campaignEditors = pgTable(
  'campaign_editors',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.userId] }), index('campaign_editors_user_idx').on(t.userId)],
);

/** What happened to a campaign: written in the same transaction as the change. */
export const campaignActivity = pgTable(
  'campaign_activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    detail: text('detail').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaign_activity_campaign_at_idx').on(t.campaignId, t.at.desc())],
);

/**
 * A campaign's asset for one channel: its status, the version everyone works on, and while it is
 * being generated, who holds it and until when (the lease that keeps a second generation of it,
 * from any instance, from starting; 'Generate all' reads its progress from these rows).
 */
export const campaignAssets = pgTable(
  'campaign_assets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    status: text('status', { enum: ['draft', 'in-review', 'approved'] })
      .notNull()
      .default('draft'),
    /** 0 until its first text. */
    currentVersion: integer('current_version').notNull().default(0),
    /** The newest version's number (a conflicting save is newer than the current one). */
    lastVersion: integer('last_version').notNull().default(0),
    generatingBy: uuid('generating_by').references(() => users.id, { onDelete: 'set null' }),
    generatingUntil: timestamp('generating_until', { withTimezone: true }),
    /** Why its last generation failed (cleared by the next one that succeeds). */
    lastError: text('last_error'),
    /** The UTM tags its links carry, as edited; null: the channel's own (campaign-channels.ts). */
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmContent: text('utm_content'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campaign_assets_campaign_channel_key').on(t.campaignId, t.channel),
    check('campaign_assets_status_check', sql`${t.status} in ('draft', 'in-review', 'approved')`),
  ],
);

/** Every text an asset has had: each generation and each save, from 1. */
export const campaignAssetVersions = pgTable(
  'campaign_asset_versions',
  {
    assetId: uuid('asset_id')
      .notNull()
      .references(() => campaignAssets.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    kind: text('kind', { enum: ['generated', 'edited', 'restored', 'conflict'] }).notNull(),
    text: text('text').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** Generated versions: contracts' AssetProvenance. */
    provenance: jsonb('provenance'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.version] })],
);

/**
 * What a campaign's content may draw on besides its brief: Market Research items and competitor
 * search results brought in with 'Use in…', as they were when added (title, link, text).
 */
export const campaignSources = pgTable(
  'campaign_sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['market-research', 'competitor'] }).notNull(),
    /** The Market Research item's id, or the competitor page's link. */
    ref: text('ref').notNull(),
    title: text('title').notNull(),
    url: text('url').notNull(),
    summary: text('summary').notNull(),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campaign_sources_campaign_ref_key').on(t.campaignId, t.kind, t.ref),
    check('campaign_sources_kind_check', sql`${t.kind} in ('market-research', 'competitor')`),
  ],
);

/** The audience builder's segments saved to a campaign: a report of the CRM (contracts' SavedReport). */
export const campaignSegments = pgTable('campaign_segments', {
  id: uuid('id').primaryKey().defaultRandom(),
  campaignId: uuid('campaign_id')
    .notNull()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  label: text('label').notNull(),
  report: jsonb('report').notNull(),
  reportUrl: text('report_url'),
  savedBy: uuid('saved_by').references(() => users.id, { onDelete: 'set null' }),
  savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Each time a segment's contacts were added to the CRM campaign: who, when, how many, who was refused. */
export const campaignMemberRuns = pgTable(
  'campaign_member_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    segmentLabel: text('segment_label').notNull(),
    crmCampaignId: text('crm_campaign_id').notNull(),
    byId: uuid('by_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    total: integer('total').notNull(),
    added: integer('added').notNull(),
    alreadyMembers: integer('already_members').notNull(),
    /** Every refused contact (contracts' member failure), so none is lost. */
    failed: jsonb('failed').notNull(),
  },
  (t) => [index('campaign_member_runs_campaign_at_idx').on(t.campaignId, t.at.desc())],
);

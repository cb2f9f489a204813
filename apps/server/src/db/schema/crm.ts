import {
  bigint,
  boolean,
  char,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * GEM's embedded demo CRM (issue 14): a fictional Salesforce-like org the campaign audience
 * builder reads when no Salesforce org is configured (integrations/crm/embedded). Ids are
 * Salesforce-style 18-character ids. Filled lazily, once, by `ensureDemoCrmSeeded`; every
 * record is fictional.
 */

export const crmCampaigns = pgTable(
  'crm_campaigns',
  {
    id: char('id', { length: 18 }).primaryKey(),
    name: text('name').notNull(),
    /** The name accent-folded and lower-cased (lib/search-text `fold`), for the picker's search. */
    searchName: text('search_name').notNull(),
    /** Webinar, Event, Report, Email, Content Marketing. */
    type: text('type'),
    /** Planned, In Progress, Completed. */
    status: text('status').notNull(),
    startDate: date('start_date', { mode: 'string' }),
    /** The campaign's objective (Salesforce: Description). */
    objective: text('objective'),
    lineOfService: text('line_of_service'),
  },
  (t) => [
    index('crm_campaigns_start_date_idx').on(t.startDate.desc(), t.id),
    index('crm_campaigns_type_idx').on(t.type),
  ],
);

export const crmAccounts = pgTable(
  'crm_accounts',
  {
    id: char('id', { length: 18 }).primaryKey(),
    name: text('name').notNull(),
    /** A fictional `.example` address. */
    website: text('website'),
    industry: text('industry'),
    subIndustry: text('sub_industry'),
    country: text('country'),
    city: text('city'),
    /** Salesforce: NumberOfEmployees. */
    employees: integer('employees'),
    /** Whole units of the demo CRM's currency (Salesforce: AnnualRevenue). */
    annualRevenue: bigint('annual_revenue', { mode: 'number' }),
  },
  (t) => [index('crm_accounts_sub_industry_idx').on(t.subIndustry)],
);

export const crmContacts = pgTable(
  'crm_contacts',
  {
    id: char('id', { length: 18 }).primaryKey(),
    accountId: char('account_id', { length: 18 }).references(() => crmAccounts.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** On a fictional `.example` domain. */
    email: text('email'),
    title: text('title'),
    /** Decision maker, Influencer, User… */
    role: text('role'),
    /** Finance, Tax, IT, HR… (Salesforce: Department). */
    workArea: text('work_area'),
  },
  (t) => [
    index('crm_contacts_account_idx').on(t.accountId),
    index('crm_contacts_name_idx').on(t.lastName, t.firstName, t.id),
  ],
);

export const crmCampaignMembers = pgTable(
  'crm_campaign_members',
  {
    id: char('id', { length: 18 }).primaryKey(),
    campaignId: char('campaign_id', { length: 18 })
      .notNull()
      .references(() => crmCampaigns.id),
    contactId: char('contact_id', { length: 18 })
      .notNull()
      .references(() => crmContacts.id),
    /** Sent, Registered, Attended, Responded… */
    status: text('status').notNull(),
    hasResponded: boolean('has_responded').notNull().default(false),
    respondedAt: date('responded_at', { mode: 'string' }),
  },
  (t) => [
    // A contact is a campaign's member once (as in Salesforce); also the campaign's members.
    uniqueIndex('crm_campaign_members_campaign_contact_key').on(t.campaignId, t.contactId),
    // A contact's campaigns and responses (report exclusions, last response).
    index('crm_campaign_members_contact_idx').on(t.contactId, t.hasResponded),
  ],
);

/** One row once the demo data set is in: the marker the seeding checks under its lock. */
export const crmSeed = pgTable('crm_seed', {
  name: text('name').primaryKey(),
  /** The generator's version: a newer generator knows the data is an older one's. */
  version: integer('version').notNull(),
  seededAt: timestamp('seeded_at', { withTimezone: true }).notNull().defaultNow(),
  /** The day the campaigns' dates are counted from (YYYY-MM-DD). */
  anchorDate: date('anchor_date', { mode: 'string' }).notNull(),
});

import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { fold } from '../../../lib/search-text';
import type { Crm } from '../crm';
import { DEMO_CURRENCY } from './demo-data';
import { demoCrmRows } from './embedded-connection';
import { campaignFacts } from './embedded-facts';
import { addCampaignMembers, campaignMembership } from './embedded-membership';
import { campaignColumns, readCampaignRow, summaryOf, type CampaignRow } from './embedded-records';
import { reach, reportContacts, reportPages, reportUrl } from './embedded-reports';

/**
 * The embedded demo CRM (GEM_CRM_PROVIDER=embedded, the default): the fictional data set in the
 * crm_* tables, queried with parameterised SQL. It seeds itself before its first query
 * (`ensureDemoCrmSeeded`, embedded-connection.ts). Values match the way Salesforce compares
 * strings: whole values, any case (embedded-segments.ts). No statement reads a whole report: on
 * the embedded database (PGlite) a statement runs on the main thread, so each is kept short (a
 * report is read a page at a time, embedded-reports.ts) and takes a turn of the event loop of its
 * own (lib/event-loop-turn.ts). A campaign's facts: embedded-facts.ts; adding a report's contacts
 * to a campaign: embedded-membership.ts.
 */
export function createEmbeddedCrm({ db }: { db: Db }): Crm {
  const rows = demoCrmRows(db);

  return {
    provider: 'embedded',
    sample: true,
    revenueCurrency: DEMO_CURRENCY,

    async listCampaigns(q, limit) {
      const text = q.trim();
      const where =
        text === ''
          ? sql`true`
          : sql`(strpos(search_name, ${fold(text)}) > 0 or left(id, ${text.length}) = ${text})`;
      const found = await rows<CampaignRow>(
        sql`select ${campaignColumns} from crm_campaigns where ${where}
            order by start_date desc nulls last, id limit ${Math.max(0, Math.floor(limit))}`,
      );
      return found.map(summaryOf);
    },

    async getCampaign(campaignId) {
      const row = await readCampaignRow(rows, campaignId);
      return row ? summaryOf(row) : null;
    },

    campaignFacts: (campaignId, options) => campaignFacts(rows, campaignId, options),
    reach: (report) => reach(rows, report),
    reportUrl,
    reportContacts: (report, page) => reportContacts(rows, report, page),
    reportPages: (report, options) => reportPages(rows, report, options),
    campaignMembership: (campaignId, report, options) =>
      campaignMembership(rows, campaignId, report, options),
    addCampaignMembers: (campaignId, report, options) =>
      addCampaignMembers(rows, campaignId, report, options),
  };
}

import type { CampaignSummary, ReportContact } from '@gem/contracts/campaign-audience-builder';
import { sql } from 'drizzle-orm';
import { SALESFORCE_ID_18 } from '../salesforce-id';
import type { Rows } from './embedded-connection';

/** The demo CRM's rows as its statements read them: campaigns and report contacts. */

export type CampaignRow = {
  id: string;
  name: string;
  type: string | null;
  start_date: string | null;
  objective: string | null;
  line_of_service: string | null;
};

/** The columns of a CampaignRow, from crm_campaigns. */
export const campaignColumns = sql`id, name, type, start_date::text as start_date, objective, line_of_service`;

export const summaryOf = (row: CampaignRow): CampaignSummary => ({
  id: row.id,
  name: row.name,
  type: row.type,
  startDate: row.start_date,
});

/** A campaign by its 18-character id; null for none, or for an id that is not one. */
export async function readCampaignRow(rows: Rows, campaignId: string): Promise<CampaignRow | null> {
  if (!SALESFORCE_ID_18.test(campaignId)) return null;
  const [row] = await rows<CampaignRow>(
    sql`select ${campaignColumns} from crm_campaigns where id = ${campaignId}`,
  );
  return row ?? null;
}

export type ContactRow = {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  title: string | null;
  account_id: string | null;
  account: string | null;
  industry: string | null;
  sub_industry: string | null;
  employees: number | null;
  annual_revenue: number | null;
  campaign_name: string | null;
  responded_at: string | null;
};

export const contactOf = (r: ContactRow): ReportContact => ({
  id: r.id,
  name: `${r.first_name} ${r.last_name}`,
  email: r.email,
  title: r.title,
  accountId: r.account_id,
  account: r.account,
  industry: r.industry,
  subIndustry: r.sub_industry,
  employees: r.employees,
  annualRevenue: r.annual_revenue,
  lastResponse:
    r.campaign_name === null ? null : { campaignName: r.campaign_name, respondedAt: r.responded_at },
});

import {
  AUDIENCE_REPORT_PAGE,
  reportQueryEntries,
  type ReportContact,
} from '@gem/contracts/campaign-audience-builder';
import { sql, type SQL } from 'drizzle-orm';
import type { CrmReportQuery } from '../crm';
import { SALESFORCE_ID_18 } from '../salesforce-id';
import type { Rows } from './embedded-connection';
import { contactOf, type ContactRow } from './embedded-records';
import { segmentCondition } from './embedded-segments';

/**
 * The reports (Crm.reach, reportUrl, reportContacts, reportPages): the contacts a report lists,
 * counted, a page at a time, or every page in turn. No statement reads a whole report: on the
 * embedded database (PGlite) a statement runs on the main thread, so each is kept short.
 */

/** Where a report's next page starts: after this contact, in the report's order. */
type ContactKey = { lastName: string; firstName: string; id: string };

/** How many contacts the report lists (Crm.reach); 0 for a campaign id that is not one. */
export async function reach(rows: Rows, report: CrmReportQuery): Promise<number> {
  if (!SALESFORCE_ID_18.test(report.campaignId)) return 0;
  const [row] = await rows<{ total: number }>(
    sql`select count(*)::int as total from crm_contacts c left join crm_accounts a on a.id = c.account_id
        where ${reportCondition(report)}`,
  );
  return row?.total ?? 0;
}

/** GEM's own report page, with the report in its query. */
export function reportUrl(report: CrmReportQuery): string {
  return `${AUDIENCE_REPORT_PAGE}?${new URLSearchParams(reportQueryEntries(report)).toString()}`;
}

/** A page of the report's contacts and how many it lists. */
export async function reportContacts(
  rows: Rows,
  report: CrmReportQuery,
  page: { offset: number; limit: number },
): Promise<{ total: number; contacts: ReportContact[] }> {
  if (!SALESFORCE_ID_18.test(report.campaignId)) return { total: 0, contacts: [] };
  const total = await reach(rows, report);
  const found = await contactRows(rows, report, { limit: page.limit, offset: page.offset });
  return { total, contacts: found.map(contactOf) };
}

/** Every contact of the report, `pageSize` at a time, each page starting after the last one's end. */
export function reportPages(
  rows: Rows,
  report: CrmReportQuery,
  { pageSize }: { pageSize: number },
): AsyncIterable<ReportContact[]> {
  return (async function* pages() {
    if (!SALESFORCE_ID_18.test(report.campaignId)) return;
    let after: ContactKey | undefined;
    for (;;) {
      const found = await contactRows(rows, report, { limit: pageSize, after });
      if (found.length > 0) yield found.map(contactOf);
      const last = found.at(-1);
      if (found.length < pageSize || !last) return;
      after = { lastName: last.last_name, firstName: last.first_name, id: last.id };
    }
  })();
}

/**
 * A page of a report's contacts in the report's order (last name, first name, id), each with
 * their last response. The page is chosen first from the contacts alone (the name index, or a
 * top-N sort of the matching contacts), and only its rows get their last response: PostgreSQL
 * would otherwise look up every matching contact's last response to sort them. A page after
 * another starts after its last contact (a keyset: crm_contacts_name_idx), not at an offset,
 * so no page reads the rows before it again.
 */
async function contactRows(
  rows: Rows,
  report: CrmReportQuery,
  page: { limit: number; offset?: number; after?: ContactKey | undefined },
) {
  const { after } = page;
  const from = after
    ? sql`and (c.last_name, c.first_name, c.id) > (${after.lastName}, ${after.firstName}, ${after.id})`
    : sql``;
  return rows<ContactRow>(
    sql`select c.id, c.first_name, c.last_name, c.email, c.title, c.account_id, c.account, c.industry,
          c.sub_industry, c.employees, c.annual_revenue, lr.name as campaign_name,
          lr.responded_at::text as responded_at
        from (
          select c.id, c.first_name, c.last_name, c.email, c.title, c.account_id, a.name as account,
            a.industry, a.sub_industry, a.employees, a.annual_revenue::float8 as annual_revenue
          from crm_contacts c
          left join crm_accounts a on a.id = c.account_id
          where ${reportCondition(report)} ${from}
          order by c.last_name, c.first_name, c.id
          limit ${Math.max(0, Math.floor(page.limit))} offset ${Math.max(0, Math.floor(page.offset ?? 0))}
        ) c
        left join lateral (
          select cp.name, m.responded_at from crm_campaign_members m
          join crm_campaigns cp on cp.id = m.campaign_id
          where m.contact_id = c.id and m.has_responded
          order by m.responded_at desc nulls last, cp.start_date desc nulls last, cp.id
          limit 1
        ) lr on true
        order by c.last_name, c.first_name, c.id`,
  );
}

/** The contacts (c, their account a) a report lists. */
function reportCondition(report: CrmReportQuery): SQL {
  const audience = audienceCondition(report);
  if (audience === null) return sql`false`;
  if (report.type === 'follow-up') return audience;
  // One hashed set of the campaign's members per statement, not a probe per contact (contact_id is
  // never null, so `not in` means what `not exists` would).
  return sql`${audience} and c.id not in (select m.contact_id from crm_campaign_members m where m.campaign_id = ${report.campaignId})`;
}

/**
 * The contacts (c, their account a) a report is about, whether or not they are members of its
 * campaign: the segment (new prospects), the campaign's members in it who did not respond
 * (follow-up), or its responders to the past campaigns (past responders); null for nobody (no
 * past campaign). The report lists them less the campaign's members, but for a follow-up.
 */
export function audienceCondition(report: CrmReportQuery): SQL | null {
  const member = (condition: SQL) =>
    sql`exists (select 1 from crm_campaign_members m where m.contact_id = c.id and ${condition})`;
  const segment = segmentCondition(report.segment);
  switch (report.type) {
    case 'new-prospects':
      return segment;
    case 'follow-up':
      return sql`${segment} and ${member(sql`m.campaign_id = ${report.campaignId} and not m.has_responded`)}`;
    case 'past-responders': {
      const past = report.pastCampaignIds.filter((id) => SALESFORCE_ID_18.test(id));
      if (past.length === 0) return null;
      return sql`${segment} and ${member(
        sql`m.campaign_id in (${sql.join(
          past.map((id) => sql`${id}`),
          sql`, `,
        )}) and m.has_responded`,
      )}`;
    }
  }
}

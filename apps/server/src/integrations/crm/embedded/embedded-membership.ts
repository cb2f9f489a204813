import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import {
  CrmAudienceTooLargeError,
  membershipLimit,
  type CrmMemberFailure,
  type CrmMembershipOptions,
  type CrmMembershipPreview,
  type CrmMembershipResult,
  type CrmReportQuery,
} from '../crm';
import { to18 } from '../salesforce-id';
import type { Rows } from './embedded-connection';
import { readCampaignRow, summaryOf } from './embedded-records';
import { audienceCondition } from './embedded-reports';

/**
 * Campaign membership on the demo CRM (Crm.campaignMembership, addCampaignMembers): a report's
 * contacts become rows of crm_campaign_members, the table the facts and reports read. One
 * statement counts them; adding reads them a page at a time (a keyset on the contact's id, so no
 * page reads the ones before it again) and inserts each page's new members in one statement,
 * `on conflict do nothing` on the (campaign, contact) key: a contact is a member once, however
 * many times or from however many instances the segment is added. A page the database refuses
 * (a constraint, a trigger) is split in halves until the rows it refuses are found; those are
 * listed with the database's words, the others go in. Any other database failure throws: what was
 * added stays, and adding again goes on from there.
 */

/** Contacts read and inserted per statement. */
const PAGE = 1_000;
/** A new member's status: Salesforce's default first CampaignMemberStatus. */
const NEW_MEMBER_STATUS = 'Sent';

/** The contacts (c) the report holds, with t their membership of `campaignId` (null for none). */
const fromAudience = (campaignId: string, audience: SQL) => sql`
  from crm_contacts c
  left join crm_accounts a on a.id = c.account_id
  left join crm_campaign_members t on t.campaign_id = ${campaignId} and t.contact_id = c.id
  where ${audience}`;

async function counted(
  rows: Rows,
  campaignId: string,
  report: CrmReportQuery,
  options?: CrmMembershipOptions,
) {
  const audience = audienceCondition(report);
  if (audience === null) return { audience, total: 0, members: 0 };
  const [row] = await rows<{ total: number; members: number }>(
    sql`select count(*)::int as total, count(t.contact_id)::int as members ${fromAudience(campaignId, audience)}`,
  );
  const total = row?.total ?? 0;
  const limit = membershipLimit(options);
  if (total > limit) throw new CrmAudienceTooLargeError(limit, total);
  return { audience, total, members: row?.members ?? 0 };
}

export async function campaignMembership(
  rows: Rows,
  campaignId: string,
  report: CrmReportQuery,
  options?: CrmMembershipOptions,
): Promise<CrmMembershipPreview | null> {
  const campaign = await readCampaignRow(rows, campaignId);
  if (!campaign) return null;
  const { total, members } = await counted(rows, campaign.id, report, options);
  return { campaign: summaryOf(campaign), total, newMembers: total - members, alreadyMembers: members };
}

type Candidate = { id: string; first_name: string; last_name: string };
type PageRow = Candidate & { member: boolean };

export async function addCampaignMembers(
  rows: Rows,
  campaignId: string,
  report: CrmReportQuery,
  options?: CrmMembershipOptions,
): Promise<CrmMembershipResult | null> {
  const campaign = await readCampaignRow(rows, campaignId);
  if (!campaign) return null;
  const { audience } = await counted(rows, campaign.id, report, options);
  const result: CrmMembershipResult = {
    campaign: summaryOf(campaign),
    total: 0,
    added: 0,
    alreadyMembers: 0,
    failed: [],
  };
  if (audience === null) return result;
  let after: string | null = null;
  for (;;) {
    const page: PageRow[] = await rows<PageRow>(
      sql`select c.id, c.first_name, c.last_name, t.contact_id is not null as member
          ${fromAudience(campaign.id, audience)} ${after === null ? sql`` : sql`and c.id > ${after}`}
          order by c.id limit ${PAGE}`,
    );
    result.total += page.length;
    const candidates = page.filter((c) => !c.member);
    result.alreadyMembers += page.length - candidates.length;
    const { added, failed } = await insertMembers(rows, campaign.id, candidates);
    result.added += added;
    result.failed.push(...failed);
    // Made members by someone else since the page was read.
    result.alreadyMembers += candidates.length - added - failed.length;
    if (page.length < PAGE) return result;
    after = page.at(-1)!.id;
  }
}

/** Inserts the candidates' memberships; a statement refused is split until the refused rows are found. */
async function insertMembers(
  rows: Rows,
  campaignId: string,
  candidates: Candidate[],
): Promise<{ added: number; failed: CrmMemberFailure[] }> {
  if (candidates.length === 0) return { added: 0, failed: [] };
  const values = JSON.stringify(
    candidates.map((c) => ({ id: memberIdOf(campaignId, c.id), contact_id: c.id })),
  );
  try {
    const inserted = await rows<{ contact_id: string }>(
      sql`insert into crm_campaign_members (id, campaign_id, contact_id, status, has_responded)
          select r.id, ${campaignId}, r.contact_id, ${NEW_MEMBER_STATUS}, false
          from json_to_recordset(${values}::json) as r(id text, contact_id text)
          on conflict (campaign_id, contact_id) do nothing
          returning contact_id`,
    );
    return { added: inserted.length, failed: [] };
  } catch (error) {
    const refusal = rowRefusal(error);
    if (!refusal) throw error;
    if (candidates.length === 1) {
      const [c] = candidates;
      return {
        added: 0,
        failed: [{ contactId: c!.id, name: `${c!.first_name} ${c!.last_name}`, ...refusal }],
      };
    }
    const half = Math.ceil(candidates.length / 2);
    const first = await insertMembers(rows, campaignId, candidates.slice(0, half));
    const second = await insertMembers(rows, campaignId, candidates.slice(half));
    return { added: first.added + second.added, failed: [...first.failed, ...second.failed] };
  }
}

/**
 * SQLSTATE classes of a statement refused for what its rows hold (data exceptions, integrity
 * constraints, a trigger's raise): another set of rows may go in. Anything else (a lost
 * connection, a shutdown) is the database's failure, not the rows'.
 */
const rowClasses = new Set(['22', '23', '27', '44', 'P0']);

/** The database's code and words for a statement its rows made it refuse; null for any other failure. */
function rowRefusal(error: unknown): { code: string; reason: string } | null {
  // Drizzle wraps the driver's error (whose message holds the statement) as its cause.
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return rowClasses.has(code.slice(0, 2)) ? { code, reason: e.message } : null;
    }
  }
  return null;
}

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A member's id: a Salesforce-style CampaignMember id (key prefix 00v) drawn from the campaign
 * and the contact, on pod '7R' so it never meets the seeded ones ('7Q'). The same membership
 * always gets the same id; two memberships share one with odds of about one in 10^17 each.
 */
export function memberIdOf(campaignId: string, contactId: string): string {
  let n = createHash('sha256').update(`${campaignId}:${contactId}`).digest().readBigUInt64BE(0);
  let digits = '';
  for (let i = 0; i < 10; i += 1) {
    digits = base62[Number(n % 62n)]! + digits;
    n /= 62n;
  }
  return to18(`00v7R${digits}`);
}

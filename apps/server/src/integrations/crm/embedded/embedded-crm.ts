import {
  AUDIENCE_REPORT_PAGE,
  employeeBands,
  reportQueryEntries,
  revenueBands,
  type SizeBand,
  type CampaignSummary,
  type PastCampaignFact,
  type ReportContact,
  type SegmentInput,
  type ValueCount,
} from '@gem/contracts/campaign-audience-builder';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { rowsOf } from '../../../db/rows';
import { nextTurn } from '../../../lib/event-loop-turn';
import { fold } from '../../../lib/search-text';
import type { CampaignFactsOptions, Crm, CrmCampaignFacts, CrmReportQuery, CrmVocabulary } from '../crm';
import { SALESFORCE_ID_18 } from '../salesforce-id';
import { DEMO_CURRENCY } from './demo-data';
import { ensureDemoCrmSeeded } from './seed';

/**
 * The embedded demo CRM (GEM_CRM_PROVIDER=embedded, the default): the fictional data set in the
 * crm_* tables, queried with parameterised SQL. It seeds itself before its first query
 * (`ensureDemoCrmSeeded`). Values match the way Salesforce compares strings: whole values,
 * any case. No statement reads a whole report: on the embedded database (PGlite) a statement
 * runs on the main thread, so each is kept short (a report is read a page at a time) and takes
 * a turn of the event loop of its own (lib/event-loop-turn.ts).
 */

type CampaignRow = {
  id: string;
  name: string;
  type: string | null;
  start_date: string | null;
  objective: string | null;
  line_of_service: string | null;
};

/** The account's numbers that size bands are computed from. */
type SizeColumn = 'a.employees' | 'a.annual_revenue';

/**
 * A number's band key as SQL: `case when … < 50 then '1-49' … end`, null for no number. Written
 * out, not as parameters: the same expression must appear in a statement's select list and its
 * grouping sets, and two parameters are never the same expression. Safe to write out: the column
 * is one of two names, and the bands are contracts' constants (numbers, and keys without quotes);
 * nothing in it comes from a request. Built once, into `kinds` below.
 */
function bandSql(column: SizeColumn, bands: readonly SizeBand[]): SQL {
  const arms = bands.map((band) =>
    band.below === null ? `else '${band.key}'` : `when ${column} < ${band.below} then '${band.key}'`,
  );
  return sql.raw(`(case when ${column} is null then null ${arms.join(' ')} end)`);
}

/** `column` in one of the bands: `(column >= 50 and column < 250) or …`, the bounds as parameters. */
function inBands(column: SQL, bands: readonly SizeBand[], keys: readonly string[]): SQL {
  const ranges = bands
    .filter((band) => keys.includes(band.key))
    .map((band) =>
      band.below === null
        ? sql`${column} >= ${band.from}`
        : sql`(${column} >= ${band.from} and ${column} < ${band.below})`,
    );
  return ranges.length === 0 ? sql`false` : sql`(${sql.join(ranges, sql` or `)})`;
}

/** The value kinds the facts split members by, as SQL expressions over contact c and account a. */
const kinds = {
  industry: sql`a.industry`,
  subIndustry: sql`a.sub_industry`,
  title: sql`c.title`,
  role: sql`c.role`,
  workArea: sql`c.work_area`,
  employees: bandSql('a.employees', employeeBands),
  revenue: bandSql('a.annual_revenue', revenueBands),
} as const;
type Kind = keyof typeof kinds;
const kindNames = Object.keys(kinds) as Kind[];

type ContactRow = {
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

/** Where a report's next page starts: after this contact, in the report's order. */
type ContactKey = { lastName: string; firstName: string; id: string };

const contactOf = (r: ContactRow): ReportContact => ({
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

const summaryOf = (row: CampaignRow): CampaignSummary => ({
  id: row.id,
  name: row.name,
  type: row.type,
  startDate: row.start_date,
});

export function createEmbeddedCrm({ db }: { db: Db }): Crm {
  const rows = async <T>(query: SQL): Promise<T[]> => {
    await ensureDemoCrmSeeded(db);
    // Each statement in a turn of its own: on PGlite it holds the event loop while it runs.
    await nextTurn();
    return rowsOf<T>(db, query);
  };

  const campaignColumns = sql`id, name, type, start_date::text as start_date, objective, line_of_service`;

  const getCampaignRow = async (campaignId: string) => {
    if (!SALESFORCE_ID_18.test(campaignId)) return null;
    const [row] = await rows<CampaignRow>(
      sql`select ${campaignColumns} from crm_campaigns where id = ${campaignId}`,
    );
    return row ?? null;
  };

  const count = async (report: CrmReportQuery) => {
    if (!SALESFORCE_ID_18.test(report.campaignId)) return 0;
    const [row] = await rows<{ total: number }>(
      sql`select count(*)::int as total from crm_contacts c left join crm_accounts a on a.id = c.account_id
          where ${reportCondition(report)}`,
    );
    return row?.total ?? 0;
  };

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
      const row = await getCampaignRow(campaignId);
      return row ? summaryOf(row) : null;
    },

    async campaignFacts(campaignId, options) {
      const campaign = await getCampaignRow(campaignId);
      if (!campaign) return null;
      const [split, past, vocabulary] = [
        await memberSplit(campaignId),
        await pastCampaigns(campaign, options),
        await vocabularyOf(options.vocabularySize),
      ];
      const total = split.get('total')?.[0] ?? { value: '', responders: 0, nonResponders: 0 };
      const top = (kind: Kind) => (split.get(kind) ?? []).slice(0, options.topValues);
      const facts: CrmCampaignFacts['facts'] = {
        campaign: {
          id: campaign.id,
          name: campaign.name,
          type: campaign.type,
          startDate: campaign.start_date,
          objective: campaign.objective,
          lineOfService: campaign.line_of_service,
        },
        members: total.responders + total.nonResponders,
        responders: total.responders,
        byIndustry: top('industry'),
        bySubIndustry: top('subIndustry'),
        byTitle: top('title'),
        byRole: top('role'),
        byWorkArea: top('workArea'),
        byEmployees: inBandOrder(split.get('employees') ?? [], employeeBands),
        byRevenue: inBandOrder(split.get('revenue') ?? [], revenueBands),
        revenueCurrency: DEMO_CURRENCY,
        pastCampaigns: past,
      };
      // The vocabulary holds at least every value the facts show.
      const withFacts = (list: string[], values: ValueCount[]) => {
        const seen = new Set(list);
        return [...list, ...values.map((v) => v.value).filter((v) => !seen.has(v))];
      };
      return {
        facts,
        vocabulary: {
          subIndustries: withFacts(vocabulary.subIndustries, facts.bySubIndustry),
          roles: withFacts(vocabulary.roles, facts.byRole),
          titles: withFacts(vocabulary.titles, facts.byTitle),
          workAreas: withFacts(vocabulary.workAreas, facts.byWorkArea),
          employeeBands: vocabulary.employeeBands,
          revenueBands: vocabulary.revenueBands,
        },
      };
    },

    reach: count,

    reportUrl(report) {
      return `${AUDIENCE_REPORT_PAGE}?${new URLSearchParams(reportQueryEntries(report)).toString()}`;
    },

    async reportContacts(report, page) {
      if (!SALESFORCE_ID_18.test(report.campaignId)) return { total: 0, contacts: [] };
      const total = await count(report);
      const found = await contactRows(report, { limit: page.limit, offset: page.offset });
      return { total, contacts: found.map(contactOf) };
    },

    reportPages(report, { pageSize }) {
      return (async function* pages() {
        if (!SALESFORCE_ID_18.test(report.campaignId)) return;
        let after: ContactKey | undefined;
        for (;;) {
          const found = await contactRows(report, { limit: pageSize, after });
          if (found.length > 0) yield found.map(contactOf);
          const last = found.at(-1);
          if (found.length < pageSize || !last) return;
          after = { lastName: last.last_name, firstName: last.first_name, id: last.id };
        }
      })();
    },
  };

  /**
   * A page of a report's contacts in the report's order (last name, first name, id), each with
   * their last response. The page is chosen first from the contacts alone (the name index, or a
   * top-N sort of the matching contacts), and only its rows get their last response: PostgreSQL
   * would otherwise look up every matching contact's last response to sort them. A page after
   * another starts after its last contact (a keyset: crm_contacts_name_idx), not at an offset,
   * so no page reads the rows before it again.
   */
  async function contactRows(
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

  /** Members and responders per value of each kind (most members first), and the campaign's totals under 'total'. */
  async function memberSplit(campaignId: string) {
    const found = await rows<{ kind: string; value: string | null; members: number; responders: number }>(sql`
      select
        case ${sql.join(
          kindNames.map((kind) => sql`when grouping(${kinds[kind]}) = 0 then ${kind}`),
          sql` `,
        )} else 'total' end as kind,
        coalesce(${sql.join(
          kindNames.map((kind) => kinds[kind]),
          sql`, `,
        )}) as value,
        count(*)::int as members,
        (count(*) filter (where m.has_responded))::int as responders
      from crm_campaign_members m
      join crm_contacts c on c.id = m.contact_id
      left join crm_accounts a on a.id = c.account_id
      where m.campaign_id = ${campaignId}
      group by grouping sets (${sql.join(
        kindNames.map((kind) => sql`(${kinds[kind]})`),
        sql`, `,
      )}, ())
    `);
    const byKind = new Map<string, ValueCount[]>();
    for (const row of found) {
      if (row.kind !== 'total' && row.value === null) continue;
      const list = byKind.get(row.kind) ?? [];
      list.push({
        value: row.value ?? '',
        responders: row.responders,
        nonResponders: row.members - row.responders,
      });
      byKind.set(row.kind, list);
    }
    for (const list of byKind.values()) {
      list.sort(
        (a, b) =>
          b.responders + b.nonResponders - (a.responders + a.nonResponders) ||
          (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
      );
    }
    return byKind;
  }

  /** Campaigns of the same type that have started, best response rate first. */
  async function pastCampaigns(
    campaign: CampaignRow,
    options: CampaignFactsOptions,
  ): Promise<PastCampaignFact[]> {
    if (campaign.type === null || options.pastCampaigns <= 0) return [];
    const found = await rows<CampaignRow & { members: number; responders: number }>(sql`
      select cp.id, cp.name, cp.type, cp.start_date::text as start_date, cp.objective, cp.line_of_service,
        count(m.id)::int as members,
        (count(m.id) filter (where m.has_responded))::int as responders
      from crm_campaigns cp
      left join crm_campaign_members m on m.campaign_id = cp.id
      where cp.type = ${campaign.type} and cp.id <> ${campaign.id} and cp.start_date <= current_date
      group by cp.id
      order by (count(m.id) filter (where m.has_responded))::float8 / nullif(count(m.id), 0) desc nulls last,
        cp.start_date desc, cp.id
      limit ${Math.floor(options.pastCampaigns)}
    `);
    return found.map((row) => ({
      id: row.id,
      name: row.name,
      startDate: row.start_date,
      objective: row.objective,
      lineOfService: row.line_of_service,
      members: row.members,
      responders: row.responders,
    }));
  }

  /** Every value in the CRM per kind, most contacts first, at most `size` each. */
  async function vocabularyOf(size: number): Promise<CrmVocabulary> {
    const vocabularyKinds = {
      subIndustries: kinds.subIndustry,
      roles: kinds.role,
      titles: kinds.title,
      workAreas: kinds.workArea,
      employeeBands: kinds.employees,
      revenueBands: kinds.revenue,
    };
    const names = Object.keys(vocabularyKinds) as (keyof CrmVocabulary)[];
    const found = await rows<{ kind: keyof CrmVocabulary; value: string; contacts: number }>(sql`
      select * from (
        select
          case ${sql.join(
            names.map((name) => sql`when grouping(${vocabularyKinds[name]}) = 0 then ${name}`),
            sql` `,
          )} end as kind,
          coalesce(${sql.join(
            names.map((name) => vocabularyKinds[name]),
            sql`, `,
          )}) as value,
          count(*)::int as contacts
        from crm_contacts c left join crm_accounts a on a.id = c.account_id
        group by grouping sets (${sql.join(
          names.map((name) => sql`(${vocabularyKinds[name]})`),
          sql`, `,
        )})
      ) v where value is not null
      order by kind, contacts desc, value
    `);
    const vocabulary: CrmVocabulary = {
      subIndustries: [],
      roles: [],
      titles: [],
      workAreas: [],
      employeeBands: [],
      revenueBands: [],
    };
    for (const row of found) {
      const list = vocabulary[row.kind];
      if (list.length < size) list.push(row.value);
    }
    // Bands in their own order, not by contacts.
    const ordered = (present: string[], bands: readonly SizeBand[]) =>
      bands.map((b) => b.key).filter((key) => present.includes(key));
    vocabulary.employeeBands = ordered(vocabulary.employeeBands, employeeBands);
    vocabulary.revenueBands = ordered(vocabulary.revenueBands, revenueBands);
    return vocabulary;
  }
}

/** A split by bands in the bands' order. */
function inBandOrder(counts: ValueCount[], bands: readonly SizeBand[]): ValueCount[] {
  return bands.flatMap((band) => counts.filter((c) => c.value === band.key));
}

/** `lower(column) in (lower($1), …)`: a whole value, any case (as SOQL compares). */
function oneOf(column: SQL, values: readonly string[]): SQL {
  return sql`lower(${column}) in (${sql.join(
    values.map((value) => sql`lower(${value})`),
    sql`, `,
  )})`;
}

/**
 * Who a segment holds (contracts' Segment): sub-industry, (role or title), work area, employee
 * band, revenue band; an empty list does not narrow.
 */
export function segmentCondition(segment: SegmentInput): SQL {
  const parts: SQL[] = [];
  if (segment.subIndustries.length > 0) parts.push(oneOf(kinds.subIndustry, segment.subIndustries));
  const people = [
    ...(segment.roles.length > 0 ? [oneOf(kinds.role, segment.roles)] : []),
    ...(segment.titles.length > 0 ? [oneOf(kinds.title, segment.titles)] : []),
  ];
  if (people.length > 0) parts.push(sql`(${sql.join(people, sql` or `)})`);
  if (segment.workAreas.length > 0) parts.push(oneOf(kinds.workArea, segment.workAreas));
  const { employeeBands: employees = [], revenueBands: revenue = [] } = segment;
  if (employees.length > 0) parts.push(inBands(sql`a.employees`, employeeBands, employees));
  if (revenue.length > 0) parts.push(inBands(sql`a.annual_revenue`, revenueBands, revenue));
  return parts.length > 0 ? sql.join(parts, sql` and `) : sql`true`;
}

/** The contacts (c, their account a) a report lists. */
function reportCondition(report: CrmReportQuery): SQL {
  const member = (condition: SQL) =>
    sql`exists (select 1 from crm_campaign_members m where m.contact_id = c.id and ${condition})`;
  // One hashed set of the campaign's members per statement, not a probe per contact (contact_id is
  // never null, so `not in` means what `not exists` would).
  const notMember = sql`c.id not in (select m.contact_id from crm_campaign_members m where m.campaign_id = ${report.campaignId})`;
  const segment = segmentCondition(report.segment);
  switch (report.type) {
    case 'new-prospects':
      return sql`${segment} and ${notMember}`;
    case 'follow-up':
      return sql`${segment} and ${member(sql`m.campaign_id = ${report.campaignId} and not m.has_responded`)}`;
    case 'past-responders': {
      const past = report.pastCampaignIds.filter((id) => SALESFORCE_ID_18.test(id));
      if (past.length === 0) return sql`false`;
      return sql`${segment} and ${member(
        sql`m.campaign_id in (${sql.join(
          past.map((id) => sql`${id}`),
          sql`, `,
        )}) and m.has_responded`,
      )} and ${notMember}`;
    }
  }
}

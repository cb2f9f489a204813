import {
  employeeBands,
  revenueBands,
  type PastCampaignFact,
  type SizeBand,
  type ValueCount,
} from '@gem/contracts/campaign-audience-builder';
import { sql } from 'drizzle-orm';
import type { CampaignFactsOptions, CrmCampaignFacts, CrmVocabulary } from '../crm';
import { DEMO_CURRENCY } from './demo-data';
import type { Rows } from './embedded-connection';
import { readCampaignRow, type CampaignRow } from './embedded-records';
import { kindNames, kinds, type Kind } from './embedded-segments';

/**
 * A campaign's facts (Crm.campaignFacts): its members split by each kind of value in one
 * grouping-sets statement, the past campaigns of its type, and the CRM's vocabulary.
 */
export async function campaignFacts(
  rows: Rows,
  campaignId: string,
  options: CampaignFactsOptions,
): Promise<CrmCampaignFacts | null> {
  const campaign = await readCampaignRow(rows, campaignId);
  if (!campaign) return null;
  const [split, past, vocabulary] = [
    await memberSplit(rows, campaignId),
    await pastCampaigns(rows, campaign, options),
    await vocabularyOf(rows, options.vocabularySize),
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
}

/** Members and responders per value of each kind (most members first), and the campaign's totals under 'total'. */
async function memberSplit(rows: Rows, campaignId: string) {
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
  rows: Rows,
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
async function vocabularyOf(rows: Rows, size: number): Promise<CrmVocabulary> {
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

/** A split by bands in the bands' order. */
function inBandOrder(counts: ValueCount[], bands: readonly SizeBand[]): ValueCount[] {
  return bands.flatMap((band) => counts.filter((c) => c.value === band.key));
}

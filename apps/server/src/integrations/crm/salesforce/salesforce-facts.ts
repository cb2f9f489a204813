import type { Connection } from '@jsforce/jsforce-node';
import {
  sizeBands,
  type PastCampaignFact,
  type SegmentDimension,
  type SizeDimension,
  type ValueCount,
} from '@gem/contracts/campaign-audience-builder';
import type { CrmMapping } from '../../../config/crm';
import type { Log } from '../../../lib/logger';
import type { CampaignFactsOptions, CrmCampaignFacts, CrmVocabulary } from '../crm';
import { describeError, records, toCrmError, type SfRecord } from './salesforce-connection';
import {
  bandsOfKind,
  campaignExtrasOf,
  campaignFieldsOf,
  dimensionField,
  distinct,
  factKinds,
  kindValue,
  MAX_MEMBERS,
  readCampaign,
  sizeField,
  valueAt,
  type FactKind,
  type Person,
} from './salesforce-records';
import { soqlId, soqlString } from './soql';

/**
 * A campaign's facts from the org: its CampaignMembers (HasResponded) with the Contact's or
 * Lead's fields as the mapping file names them, aggregated here; past campaigns of the same Type
 * with NumberOfContacts, NumberOfLeads and NumberOfResponses; and the vocabulary a segment may
 * use (the values seen, then the mapped fields' picklist values).
 */

/** Candidates read for the past campaigns of a type (the best are kept). */
const PAST_CANDIDATES = 200;

export type FactsSource = { mapping: CrmMapping; people: Person[]; log: Pick<Log, 'warn' | 'debug'> };

/** Each kind's values among the members, with their responders and non-responders. */
type Split = Map<FactKind, Map<string, ValueCount>>;

const today = () => new Date().toISOString().slice(0, 10);

export async function campaignFacts(
  conn: Connection,
  source: FactsSource,
  campaignId: string,
  options: CampaignFactsOptions,
): Promise<CrmCampaignFacts | null> {
  const { mapping } = source;
  const campaign = await readCampaign(conn, mapping, campaignId);
  if (!campaign) return null;
  const id = String(campaign.Id);
  const members = await readMembers(conn, source, id);
  const { split, counted, responders } = splitMembers(source.people, members);
  const ranked = (kind: FactKind) => rankedValues(split, kind).slice(0, options.topValues);
  const type = valueAt(campaign, 'Type');
  const facts: CrmCampaignFacts['facts'] = {
    campaign: {
      id,
      name: valueAt(campaign, 'Name') ?? '',
      type,
      startDate: valueAt(campaign, 'StartDate'),
      ...campaignExtrasOf(mapping, campaign),
    },
    members: counted,
    responders,
    byIndustry: ranked('industry'),
    bySubIndustry: ranked('subIndustry'),
    byTitle: ranked('title'),
    byRole: ranked('role'),
    byWorkArea: ranked('workArea'),
    byEmployees: bandedValues(split, 'employees'),
    byRevenue: bandedValues(split, 'annualRevenue'),
    revenueCurrency: mapping.revenueCurrency,
    pastCampaigns:
      type !== null && options.pastCampaigns > 0
        ? await pastCampaigns(conn, mapping, { id, type }, options.pastCampaigns)
        : [],
  };
  return { facts, vocabulary: await vocabularyOf(conn, source, split, facts, options.vocabularySize) };
}

/** The members, with each person type's mapped fields. */
async function readMembers(conn: Connection, { mapping, people, log }: FactsSource, id: string) {
  const memberFields = distinct([
    'Id',
    'HasResponded',
    ...people.flatMap((p) => [
      p.idField,
      ...factKinds
        .map((k) => p.fields[k])
        .filter((f): f is string => f !== null)
        .map((f) => `${p.object}.${f}`),
    ]),
  ]);
  const onlyContacts = mapping.lead ? '' : ' AND ContactId != null';
  const members = await records(
    conn,
    `SELECT ${memberFields.join(', ')} FROM CampaignMember WHERE CampaignId = ${soqlId(id)}${onlyContacts}`,
    MAX_MEMBERS,
  );
  if (!members.complete) {
    log.warn(
      { crm: 'salesforce', campaignId: id, read: members.records.length },
      'campaign facts read from the first members only',
    );
  }
  return members.records;
}

/** Counts the members of a known person type, their responders, and each kind's values among them. */
function splitMembers(people: Person[], members: SfRecord[]) {
  const split: Split = new Map(factKinds.map((k) => [k, new Map()]));
  let responders = 0;
  let counted = 0;
  for (const member of members) {
    const person = people.find((p) => valueAt(member, p.idField) !== null);
    if (!person) continue;
    counted += 1;
    const responded = member.HasResponded === true;
    if (responded) responders += 1;
    for (const kind of factKinds) {
      const field = person.fields[kind];
      const value = field === null ? null : kindValue(member, `${person.object}.${field}`, kind);
      if (value === null) continue;
      const values = split.get(kind)!;
      const entry = values.get(value) ?? { value, responders: 0, nonResponders: 0 };
      if (responded) entry.responders += 1;
      else entry.nonResponders += 1;
      values.set(value, entry);
    }
  }
  return { split, counted, responders };
}

/** A kind's values, most members first, then by value. */
const rankedValues = (split: Split, kind: FactKind) =>
  [...split.get(kind)!.values()].sort(
    (a, b) =>
      b.responders + b.nonResponders - (a.responders + a.nonResponders) ||
      (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );

/** A size's bands in band order, those with members only. */
const bandedValues = (split: Split, kind: 'employees' | 'annualRevenue') => {
  const counts = split.get(kind)!;
  return sizeBands[bandsOfKind[kind]!].flatMap((band) => counts.get(band.key) ?? []);
};

/** Past campaigns of the same type that have started, best response rate first. */
async function pastCampaigns(
  conn: Connection,
  mapping: CrmMapping,
  campaign: { id: string; type: string },
  most: number,
): Promise<PastCampaignFact[]> {
  const pastFields = distinct([
    ...campaignFieldsOf(mapping),
    'NumberOfContacts',
    'NumberOfLeads',
    'NumberOfResponses',
  ]);
  const past = await records(
    conn,
    `SELECT ${pastFields.join(', ')} FROM Campaign WHERE Type = ${soqlString(campaign.type)} AND Id != ${soqlId(campaign.id)} ` +
      `AND StartDate <= ${today()} ORDER BY StartDate DESC LIMIT ${PAST_CANDIDATES}`,
    PAST_CANDIDATES,
  );
  const number = (r: SfRecord, field: string) => Math.max(0, Math.round(Number(valueAt(r, field) ?? 0)) || 0);
  return past.records
    .map((r) => {
      const pastMembers = number(r, 'NumberOfContacts') + (mapping.lead ? number(r, 'NumberOfLeads') : 0);
      return {
        id: String(r.Id),
        name: valueAt(r, 'Name') ?? '',
        startDate: valueAt(r, 'StartDate'),
        ...campaignExtrasOf(mapping, r),
        members: pastMembers,
        responders: Math.min(pastMembers, number(r, 'NumberOfResponses')),
      };
    })
    .sort((a, b) => (b.members ? b.responders / b.members : -1) - (a.members ? a.responders / a.members : -1))
    .slice(0, most);
}

/**
 * The vocabulary: the values seen among the members (most first), then the picklist values, up to
 * `size`, and every value the facts show. Every band of a size the org keeps a number for: bands
 * need no picklist.
 */
async function vocabularyOf(
  conn: Connection,
  source: FactsSource,
  split: Split,
  facts: CrmCampaignFacts['facts'],
  size: number,
): Promise<CrmVocabulary> {
  const bandsKept = (dimension: SizeDimension) =>
    source.people.some((p) => p.fields[sizeField[dimension]] !== null)
      ? sizeBands[dimension].map((band) => band.key)
      : [];
  const vocabulary: CrmVocabulary = {
    subIndustries: [],
    roles: [],
    titles: [],
    workAreas: [],
    employeeBands: bandsKept('employeeBands'),
    revenueBands: bandsKept('revenueBands'),
  };
  const shownIn: Record<SegmentDimension, ValueCount[]> = {
    subIndustries: facts.bySubIndustry,
    roles: facts.byRole,
    titles: facts.byTitle,
    workAreas: facts.byWorkArea,
  };
  for (const dimension of Object.keys(dimensionField) as SegmentDimension[]) {
    const kind = dimensionField[dimension] as FactKind;
    const seen = rankedValues(split, kind).map((v) => v.value);
    const picklists = await picklistValues(conn, source, kind);
    const all = [...new Set([...seen, ...picklists])];
    const shown = new Set(shownIn[dimension].map((v) => v.value));
    vocabulary[dimension] = [
      ...all.slice(0, size),
      ...[...shown].filter((v) => !all.slice(0, size).includes(v)),
    ];
  }
  return vocabulary;
}

/** The picklist values of the fields a kind is mapped to (Contact's and Lead's), when they are picklists. */
async function picklistValues(
  conn: Connection,
  { people, log }: FactsSource,
  kind: FactKind,
): Promise<string[]> {
  const values: string[] = [];
  for (const person of people) {
    const path = person.fields[kind];
    if (path === null) continue;
    try {
      values.push(...(await fieldPicklist(conn, person.object, path)));
    } catch (err) {
      const error = toCrmError(err, `describe ${person.object}.${path}`);
      if (error.failure === 'timeout' || error.failure === 'auth') throw error;
      log.debug({ crm: 'salesforce', err: describeError(err) }, 'no picklist values for a mapped field');
    }
  }
  return values;
}

/** The active picklist values of the field at `path` from `object`, following its relationships; none for another type. */
async function fieldPicklist(conn: Connection, from: string, path: string): Promise<string[]> {
  let object = from;
  const parts = path.split('.');
  for (const relationship of parts.slice(0, -1)) {
    const described = await conn.describe$(object);
    const lookup = described.fields.find(
      (f) => f.relationshipName?.toLowerCase() === relationship.toLowerCase(),
    );
    if (!lookup?.referenceTo?.[0]) throw new Error(`no relationship ${relationship} on ${object}`);
    object = lookup.referenceTo[0];
  }
  const described = await conn.describe$(object);
  const field = described.fields.find((f) => f.name.toLowerCase() === parts.at(-1)!.toLowerCase());
  return field?.type === 'picklist' ? field.picklistValues!.filter((v) => v.active).map((v) => v.value) : [];
}

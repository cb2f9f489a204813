import type { Connection } from '@jsforce/jsforce-node';
import {
  sizeBands,
  sizeDimensions,
  type SegmentDimension,
  type SegmentInput,
  type SizeDimension,
} from '@gem/contracts/campaign-audience-builder';
import type { CrmMapping, PersonFields, ReportFilterValue } from '../../../config/crm';
import type { CrmReportQuery } from '../crm';
import { countOf, records } from './salesforce-connection';
import { dimensionField, MAX_MEMBERS, sizeField, valueAt, type Person } from './salesforce-records';
import { isSalesforceId, soqlId, soqlList } from './soql';

/**
 * A report's reach, counted with COUNT() queries and the members' ids, and where it opens: a
 * Salesforce report template (the mapping's report ids) with the values as fv0…fvN.
 */

/** The most past-campaign responders read to count a past-responders report. */
const MAX_RESPONDERS = 50_000;

/** undefined: does not narrow; null: this person type cannot match; else the condition. */
type Condition = string | null | undefined;

/** The conditions given, joined by AND; empty ones left out. */
export const and = (...parts: (string | null | undefined)[]) => parts.filter((p) => p).join(' AND ');

/**
 * The SOQL condition "this person is in the segment", over a path prefix (`Contact.` on a
 * CampaignMember, '' on the Contact itself); null when the person type cannot match (the
 * segment uses a dimension this org keeps only on the other type).
 */
export function segmentSoql(
  people: Person[],
  person: Person,
  segment: SegmentInput,
  prefix: string,
): string | null {
  const condition = (
    values: readonly string[],
    key: keyof PersonFields,
    soql: (field: string) => string,
  ): Condition => {
    if (values.length === 0) return undefined;
    const field = person.fields[key];
    if (field === null) {
      // Kept on neither person type: the dimension does not narrow.
      return people.some((p) => p.fields[key] !== null) ? null : undefined;
    }
    return soql(`${prefix}${field}`);
  };
  const inList = (dimension: SegmentDimension) =>
    condition(
      segment[dimension],
      dimensionField[dimension],
      (field) => `${field} IN ${soqlList(segment[dimension])}`,
    );
  const inBands = (dimension: SizeDimension) => {
    const keys = segment[dimension] ?? [];
    return condition(keys, sizeField[dimension], (field) => bandsSoql(dimension, keys, field));
  };
  const sizes = sizeDimensions.map(inBands);
  return segmentOf(inList('subIndustries'), inList('roles'), inList('titles'), inList('workAreas'), sizes);
}

/** `field` within any of the chosen bands. Numbers, not literals: the keys are the contracts' own. */
function bandsSoql(dimension: SizeDimension, keys: readonly string[], field: string): string {
  const ranges = sizeBands[dimension]
    .filter((band) => keys.includes(band.key as never))
    .map((band) =>
      band.below === null
        ? `${field} >= ${band.from}`
        : `(${field} >= ${band.from} AND ${field} < ${band.below})`,
    );
  return ranges.length === 1 ? ranges[0]! : `(${ranges.join(' OR ')})`;
}

/** The dimensions' conditions together: role or title, and the rest; null when one cannot match. */
function segmentOf(
  sub: Condition,
  role: Condition,
  title: Condition,
  area: Condition,
  sizes: Condition[],
): string | null {
  if (
    sizes.includes(null) ||
    sub === null ||
    area === null ||
    (role === null && title === null) ||
    (role === null && title === undefined) ||
    (title === null && role === undefined)
  )
    return null;
  const parts: string[] = [];
  if (sub) parts.push(sub);
  const either = [role, title].filter((p): p is string => typeof p === 'string');
  if (either.length > 0) parts.push(either.length === 1 ? either[0]! : `(${either.join(' OR ')})`);
  if (area) parts.push(area);
  for (const size of sizes) if (size) parts.push(size);
  return parts.join(' AND ');
}

/** How many people the report matches, over every person type; null when it cannot be counted. */
export async function reach(
  conn: Connection,
  people: Person[],
  report: CrmReportQuery,
): Promise<number | null> {
  let total = 0;
  for (const person of people) {
    const onMember = segmentSoql(people, person, report.segment, `${person.object}.`);
    const onPerson = segmentSoql(people, person, report.segment, '');
    if (onMember === null || onPerson === null) continue;
    const where = { person, onMember, onPerson, memberOf: memberOf(report.campaignId, person) };
    if (report.type === 'follow-up') total += await followUpReach(conn, where);
    else if (report.type === 'new-prospects') total += await newProspectsReach(conn, where);
    else {
      const past = report.pastCampaignIds.filter(isSalesforceId);
      if (past.length === 0) continue;
      const count = await pastRespondersReach(conn, where, past);
      if (count === null) return null;
      total += count;
    }
  }
  return total;
}

/** One person type's conditions: in the segment on a member and on the person, and a member of the campaign. */
type Where = { person: Person; onMember: string; onPerson: string; memberOf: string };

const memberOf = (campaignId: string, person: Person) =>
  `CampaignId = ${soqlId(campaignId)} AND ${person.idField} != null`;

/** The campaign's members in the segment who did not respond. */
const followUpReach = (conn: Connection, { memberOf, onMember }: Where) =>
  countOf(
    conn,
    `SELECT COUNT() FROM CampaignMember WHERE ${and(memberOf, 'HasResponded = false', onMember)}`,
  );

/** Everyone in the segment, less the campaign's members in it (a person is a member once). */
async function newProspectsReach(conn: Connection, { person, memberOf, onMember, onPerson }: Where) {
  const unconverted = person.object === 'Lead' ? 'IsConverted = false' : '';
  const everyone = await countOf(
    conn,
    `SELECT COUNT() FROM ${person.object}${unconverted || onPerson ? ` WHERE ${and(unconverted, onPerson)}` : ''}`,
  );
  const already = await countOf(
    conn,
    `SELECT COUNT() FROM CampaignMember WHERE ${and(memberOf, unconverted && `Lead.${unconverted}`, onMember)}`,
  );
  return Math.max(0, everyone - already);
}

/** The past campaigns' responders in the segment who are not members of this one; null when too many to read. */
async function pastRespondersReach(
  conn: Connection,
  { person, memberOf, onMember }: Where,
  past: string[],
): Promise<number | null> {
  const responders = await records(
    conn,
    `SELECT ${person.idField} FROM CampaignMember WHERE ${and(
      `CampaignId IN (${past.map(soqlId).join(', ')})`,
      `${person.idField} != null`,
      'HasResponded = true',
      onMember,
    )}`,
    MAX_RESPONDERS,
  );
  const current = await records(
    conn,
    `SELECT ${person.idField} FROM CampaignMember WHERE ${and(memberOf, onMember)}`,
    MAX_MEMBERS,
  );
  if (!responders.complete || !current.complete) return null;
  const members = new Set(current.records.map((r) => valueAt(r, person.idField)));
  const ids = new Set(responders.records.map((r) => valueAt(r, person.idField)));
  let count = 0;
  for (const idValue of ids) if (!members.has(idValue)) count += 1;
  return count;
}

/**
 * The chosen bands' span as report filter values: the lowest band's start (`…From`, for a
 * "greater or equal" filter) and the highest band's end (`…Below`, for "less than"); empty when
 * there is no such bound (no band chosen, or the top band, which has no end).
 */
function spanOf<P extends 'employees' | 'revenue'>(
  prefix: P,
  dimension: SizeDimension,
  keys: readonly string[],
): Record<`${P}From` | `${P}Below`, string[]> {
  const chosen = sizeBands[dimension].filter((band) => keys.includes(band.key));
  const from = chosen.length === 0 ? '' : String(chosen[0]!.from);
  const below = chosen.length === 0 ? null : chosen.at(-1)!.below;
  return { [`${prefix}From`]: [from], [`${prefix}Below`]: [below === null ? '' : String(below)] } as Record<
    `${P}From` | `${P}Below`,
    string[]
  >;
}

/** The mapped report template's Lightning URL with the values as fv0…fvN; null when none is mapped. */
export function reportUrl(loginUrl: string, mapping: CrmMapping, report: CrmReportQuery): string | null {
  const template = mapping.reports[report.type];
  if (!template) return null;
  const { employeeBands = [], revenueBands = [] } = report.segment;
  const valuesOf: Record<ReportFilterValue, readonly string[]> = {
    campaignId: [report.campaignId],
    pastCampaignIds: report.pastCampaignIds,
    subIndustries: report.segment.subIndustries,
    roles: report.segment.roles,
    titles: report.segment.titles,
    workAreas: report.segment.workAreas,
    employeeBands,
    revenueBands,
    ...spanOf('employees', 'employeeBands', employeeBands),
    ...spanOf('revenue', 'revenueBands', revenueBands),
  };
  const params = new URLSearchParams(
    template.filters.map((filter, i): [string, string] => [`fv${i}`, valuesOf[filter].join(',')]),
  );
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return `${loginUrl}/lightning/r/Report/${template.reportId}/view${query}`;
}

import {
  employeeBands,
  revenueBands,
  type SegmentInput,
  type SizeBand,
} from '@gem/contracts/campaign-audience-builder';
import { sql, type SQL } from 'drizzle-orm';

/**
 * The kinds of value a contact is described by, as SQL over contact c and account a (what a
 * campaign's facts split its members by), and who a segment holds in them. Values match the way
 * Salesforce compares strings: whole values, any case.
 */

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
export const kinds = {
  industry: sql`a.industry`,
  subIndustry: sql`a.sub_industry`,
  title: sql`c.title`,
  role: sql`c.role`,
  workArea: sql`c.work_area`,
  employees: bandSql('a.employees', employeeBands),
  revenue: bandSql('a.annual_revenue', revenueBands),
} as const;
export type Kind = keyof typeof kinds;
export const kindNames = Object.keys(kinds) as Kind[];

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

import type { Connection } from '@jsforce/jsforce-node';
import {
  bandOf,
  sizeBands,
  type CampaignSummary,
  type SegmentDimension,
  type SizeDimension,
} from '@gem/contracts/campaign-audience-builder';
import type { CrmMapping, PersonFields } from '../../../config/crm';
import { records, type SfRecord } from './salesforce-connection';
import { soqlId } from './soql';

/**
 * The org's records as the mapping file names their fields: the person types (Contact, and Lead
 * when mapped), the kinds of value a campaign's facts count, and the campaign itself.
 */

/** The most campaign members read for a campaign's facts, or to count a report. */
export const MAX_MEMBERS = 100_000;

export const factKinds = [
  'industry',
  'subIndustry',
  'title',
  'role',
  'workArea',
  'employees',
  'annualRevenue',
] as const;
export type FactKind = (typeof factKinds)[number];
export const dimensionField: Record<SegmentDimension, keyof PersonFields> = {
  subIndustries: 'subIndustry',
  roles: 'role',
  titles: 'title',
  workAreas: 'workArea',
};
/** The size dimensions: a number on the person's record (the company's), in bands. */
export const sizeField: Record<SizeDimension, 'employees' | 'annualRevenue'> = {
  employeeBands: 'employees',
  revenueBands: 'annualRevenue',
};
export const bandsOfKind: Partial<Record<FactKind, SizeDimension>> = {
  employees: 'employeeBands',
  annualRevenue: 'revenueBands',
};

export type Person = { object: 'Contact' | 'Lead'; idField: 'ContactId' | 'LeadId'; fields: PersonFields };

/** The person types a campaign's members may be: Contact, and Lead when the mapping has its fields. */
export const peopleOf = (mapping: CrmMapping): Person[] => [
  { object: 'Contact', idField: 'ContactId', fields: mapping.contact },
  ...(mapping.lead ? [{ object: 'Lead' as const, idField: 'LeadId' as const, fields: mapping.lead }] : []),
];

/** A value at a field path (`Account.Industry`), relationship names matched in any case, as text. */
export function valueAt(record: unknown, path: string): string | null {
  let at: unknown = record;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object') return null;
    const key = Object.keys(at).find((k) => k.toLowerCase() === part.toLowerCase());
    at = key === undefined ? undefined : (at as SfRecord)[key];
  }
  if (at === null || at === undefined || typeof at === 'object') return null;
  const text = String(at as string | number | boolean).trim();
  return text === '' ? null : text;
}

/** A kind's value on a record: the text, or for a number the band it falls in. */
export function kindValue(record: unknown, path: string, kind: FactKind): string | null {
  const text = valueAt(record, path);
  const dimension = bandsOfKind[kind];
  if (text === null || dimension === undefined) return text;
  return bandOf(sizeBands[dimension], Number(text));
}

/** Field names once each, whatever their case (SOQL refuses a field selected twice). */
export const distinct = (fields: string[]) => [...new Map(fields.map((f) => [f.toLowerCase(), f])).values()];

/** A campaign's fields GEM reads: its own, and the objective and line of service the mapping names. */
export const campaignFieldsOf = (mapping: CrmMapping) => [
  'Id',
  'Name',
  'Type',
  'StartDate',
  ...[mapping.campaign.objective, mapping.campaign.lineOfService].filter((f): f is string => f !== null),
];

/** One campaign by id, with the fields `campaignFieldsOf` names; null when the org has none. */
export async function readCampaign(conn: Connection, mapping: CrmMapping, campaignId: string) {
  const select = distinct(campaignFieldsOf(mapping)).join(', ');
  const { records: found } = await records(
    conn,
    `SELECT ${select} FROM Campaign WHERE Id = ${soqlId(campaignId)} LIMIT 1`,
    1,
  );
  return found[0] ?? null;
}

export const summaryOf = (r: SfRecord): CampaignSummary => ({
  id: String(r.Id),
  name: valueAt(r, 'Name') ?? '',
  type: valueAt(r, 'Type'),
  startDate: valueAt(r, 'StartDate'),
});

/** The campaign's objective and line of service, as the mapping names their fields. */
export const campaignExtrasOf = (mapping: CrmMapping, r: SfRecord) => ({
  objective: mapping.campaign.objective ? valueAt(r, mapping.campaign.objective) : null,
  lineOfService: mapping.campaign.lineOfService ? valueAt(r, mapping.campaign.lineOfService) : null,
});

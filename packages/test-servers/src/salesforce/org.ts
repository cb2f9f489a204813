import { isoDate, isoDateTime, type SalesforceField, type SalesforceFieldType } from './field-types';
import { field, standardFields } from './standard-fields';

/**
 * The in-memory org: each object's schema (the standard fields, the fields the records hold, the
 * fields a test adds) and its records, indexed by Id.
 */

/** A record as a test hands it in: field API names to JSON values; `Id` is required. */
export type SalesforceRecord = { Id: string; [field: string]: unknown };

/** Records by sObject name: `Campaign`, `CampaignMember`, `Contact`, `Lead`, `Account`. */
export type SalesforceData = Partial<Record<string, SalesforceRecord[]>>;

function inferType(value: unknown): SalesforceFieldType {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string' && isoDate.test(value)) return 'date';
  if (typeof value === 'string' && isoDateTime.test(value)) return 'datetime';
  return 'string';
}

export type ObjectSchema = {
  name: string;
  fields: SalesforceField[];
  /** By lower-cased field name. */
  byName: Map<string, SalesforceField>;
  /** By lower-cased relationship name. */
  byRelationship: Map<string, SalesforceField>;
};

function buildSchemas(data: SalesforceData, extra: Record<string, SalesforceField[]>) {
  const schemas = new Map<string, ObjectSchema>();
  const names = new Set([...Object.keys(standardFields), ...Object.keys(data), ...Object.keys(extra)]);
  for (const name of names) {
    const fields = new Map<string, SalesforceField>();
    for (const f of standardFields[name] ?? [field('Id', 'id')]) fields.set(f.name.toLowerCase(), f);
    for (const record of data[name] ?? []) {
      for (const [key, value] of Object.entries(record)) {
        if (!fields.has(key.toLowerCase()) && value !== null && value !== undefined) {
          fields.set(key.toLowerCase(), field(key, inferType(value)));
        }
      }
    }
    for (const f of extra[name] ?? []) fields.set(f.name.toLowerCase(), f);
    const list = [...fields.values()];
    schemas.set(name.toLowerCase(), {
      name,
      fields: list,
      byName: fields,
      byRelationship: new Map(
        list.filter((f) => f.relationshipName).map((f) => [f.relationshipName!.toLowerCase(), f]),
      ),
    });
  }
  return schemas;
}

export type Org = {
  schemas: Map<string, ObjectSchema>;
  /** Records by object (lower-cased) and by Id (15 and 18 characters). */
  byId: Map<string, Map<string, SalesforceRecord>>;
  records: Map<string, SalesforceRecord[]>;
  /** Records created through the API so far: numbers their Ids. */
  created: number;
};

export function buildOrg(data: SalesforceData, extra: Record<string, SalesforceField[]>): Org {
  const schemas = buildSchemas(data, extra);
  const byId = new Map<string, Map<string, SalesforceRecord>>();
  const records = new Map<string, SalesforceRecord[]>();
  for (const [name, list] of Object.entries(data)) {
    const normalized = (list ?? []).map((record) => {
      const out: SalesforceRecord = { ...record };
      if ((name === 'Contact' || name === 'Lead') && out.Name === undefined) {
        out.Name = [record.FirstName, record.LastName].filter((x) => typeof x === 'string' && x).join(' ');
      }
      return out;
    });
    const index = new Map<string, SalesforceRecord>();
    for (const record of normalized) {
      index.set(record.Id, record);
      index.set(record.Id.slice(0, 15), record);
    }
    byId.set(name.toLowerCase(), index);
    records.set(name.toLowerCase(), normalized);
  }
  return { schemas, byId, records, created: 0 };
}

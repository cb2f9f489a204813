import { SalesforceApiError } from './errors';
import { idShape, numericTypes, type SalesforceField } from './field-types';
import { keyPrefixes, salesforceId } from './ids';
import type { ObjectSchema, Org, SalesforceRecord } from './org';

/**
 * Creating records as Salesforce does, for the sObject Collections and Bulk API 2.0 routes: each
 * record checked on its own (a lookup that is not an Id or names no record, a required field
 * missing, a contact or lead already a member of the campaign, a rule a test set), and answered
 * with a SaveResult; a field the object does not have refuses the whole request.
 */

export type SaveError = { statusCode: string; message: string; fields: string[] };
export type SaveResult = { id: string; success: true; errors: [] } | { success: false; errors: SaveError[] };

/**
 * A rule a test sets to refuse some records, as a validation rule or a trigger in the org would:
 * every record of `object` (any object when left out) that `when` holds for fails with
 * `statusCode` (FIELD_CUSTOM_VALIDATION_EXCEPTION) and `message`.
 */
export type RecordRejection = {
  object?: string;
  when: (record: Readonly<Record<string, unknown>>) => boolean;
  statusCode?: string;
  message?: string;
  fields?: string[];
};

/** Fields the API sets itself: sending one is refused for that record. */
const systemFields = new Set(['id', 'createddate', 'lastmodifieddate', 'isdeleted']);

/** The object's schema, or the request's INVALID_TYPE. */
export function schemaOf(org: Org, object: unknown): ObjectSchema {
  const schema = typeof object === 'string' ? org.schemas.get(object.toLowerCase()) : undefined;
  if (!schema) {
    throw new SalesforceApiError(
      400,
      'INVALID_TYPE',
      `sObject type '${String(object)}' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names.`,
    );
  }
  return schema;
}

/** The schema's field for each name given; an unknown one refuses the request (INVALID_FIELD). */
export function fieldsOf(schema: ObjectSchema, names: readonly string[]): SalesforceField[] {
  return names.map((name) => {
    const found = schema.byName.get(name.toLowerCase());
    if (!found) {
      throw new SalesforceApiError(
        400,
        'INVALID_FIELD',
        `No such column '${name}' on sobject of type ${schema.name}`,
      );
    }
    return found;
  });
}

/** A CSV value as the field's type holds it: `#N/A` is null, an empty value is left out. */
export function fromCsv(field: SalesforceField, text: string): unknown {
  if (text === '#N/A') return null;
  if (field.type === 'boolean') return text.toLowerCase() === 'true';
  if (numericTypes.has(field.type)) return Number(text);
  return text;
}

const error = (statusCode: string, message: string, fields: string[] = []): SaveError => ({
  statusCode,
  message,
  fields,
});

/** Campaign memberships as `campaignId:personId`, so a duplicate is found without a scan. */
const memberships = new WeakMap<Org, Set<string>>();
function membershipsOf(org: Org): Set<string> {
  let set = memberships.get(org);
  if (!set) {
    set = new Set();
    for (const m of org.records.get('campaignmember') ?? []) {
      for (const person of [m.ContactId, m.LeadId]) {
        if (typeof person === 'string') set.add(`${String(m.CampaignId)}:${person}`);
      }
    }
    memberships.set(org, set);
  }
  return set;
}
const memberKeys = (record: Record<string, unknown>) =>
  [record.ContactId, record.LeadId]
    .filter((p): p is string => typeof p === 'string')
    .map((p) => `${String(record.CampaignId)}:${p}`);

/** The record's fields with its lookups in their 18-character form, or the first error. */
function checked(
  org: Org,
  schema: ObjectSchema,
  fields: Record<string, unknown>,
  rejections: readonly RecordRejection[],
): { record: Record<string, unknown> } | { error: SaveError } {
  const record: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = schema.byName.get(name.toLowerCase())!;
    if (systemFields.has(field.name.toLowerCase())) {
      return {
        error: error(
          'INVALID_FIELD_FOR_INSERT_UPDATE',
          `Unable to create/update fields: ${field.name}. Please check the security settings of this field and verify that it is read/write for your profile or permission set.`,
          [field.name],
        ),
      };
    }
    if (field.type === 'reference' && value !== null && value !== undefined) {
      const id = String(value as string);
      const label = field.name.replace(/Id$/, ' ID');
      if (!idShape.test(id)) {
        return { error: error('MALFORMED_ID', `${label}: id value of incorrect type: ${id}`, [field.name]) };
      }
      const target = org.byId.get(field.referenceTo![0]!.toLowerCase())?.get(id);
      if (!target) {
        return { error: error('INVALID_CROSS_REFERENCE_KEY', 'invalid cross reference id', [field.name]) };
      }
      record[field.name] = target.Id;
    } else if (value !== undefined) {
      record[field.name] = value;
    }
  }
  if (schema.name === 'CampaignMember') {
    if (!record.CampaignId) {
      return {
        error: error('REQUIRED_FIELD_MISSING', 'Required fields are missing: [CampaignId]', ['CampaignId']),
      };
    }
    if (!record.ContactId && !record.LeadId) {
      return {
        error: error('REQUIRED_FIELD_MISSING', 'Required fields are missing: [ContactId, LeadId]', [
          'ContactId',
          'LeadId',
        ]),
      };
    }
    const members = membershipsOf(org);
    if (memberKeys(record).some((key) => members.has(key))) {
      return { error: error('DUPLICATE_VALUE', 'Already a campaign member.') };
    }
  }
  const rule = rejections.find(
    (r) => (r.object === undefined || r.object.toLowerCase() === schema.name.toLowerCase()) && r.when(record),
  );
  if (rule) {
    return {
      error: error(
        rule.statusCode ?? 'FIELD_CUSTOM_VALIDATION_EXCEPTION',
        rule.message ?? 'The record was refused by a validation rule.',
        rule.fields ?? [],
      ),
    };
  }
  return { record };
}

const nowIso = () => new Date().toISOString().replace('Z', '+0000');

/** Creates one record when it passes every check: its SaveResult either way. */
export function insertRecord(
  org: Org,
  schema: ObjectSchema,
  fields: Record<string, unknown>,
  rejections: readonly RecordRejection[],
): SaveResult {
  const outcome = checked(org, schema, fields, rejections);
  if ('error' in outcome) return { success: false, errors: [outcome.error] };
  org.created += 1;
  const prefix = keyPrefixes[schema.name as keyof typeof keyPrefixes] ?? 'a00';
  // Numbered past any record a test hands in.
  const id = salesforceId(prefix, 10_000_000 + org.created);
  const created = nowIso();
  const record: SalesforceRecord = {
    ...(schema.name === 'CampaignMember' ? { Status: 'Sent', HasResponded: false } : {}),
    ...outcome.record,
    Id: id,
    CreatedDate: created,
    LastModifiedDate: created,
    IsDeleted: false,
  };
  const key = schema.name.toLowerCase();
  if (!org.records.has(key)) org.records.set(key, []);
  if (!org.byId.has(key)) org.byId.set(key, new Map());
  org.records.get(key)!.push(record);
  org.byId.get(key)!.set(id, record).set(id.slice(0, 15), record);
  if (schema.name === 'CampaignMember') {
    for (const k of memberKeys(record)) membershipsOf(org).add(k);
    rollUp(org, record, 1);
  }
  return { id, success: true, errors: [] };
}

/** Takes back a record just created (an all-or-none request that failed). */
export function removeRecord(org: Org, schema: ObjectSchema, id: string): void {
  const key = schema.name.toLowerCase();
  const list = org.records.get(key) ?? [];
  const index = list.findIndex((r) => r.Id === id);
  if (index < 0) return;
  const [record] = list.splice(index, 1);
  org.byId.get(key)?.delete(id);
  org.byId.get(key)?.delete(id.slice(0, 15));
  if (schema.name === 'CampaignMember' && record) {
    for (const k of memberKeys(record)) membershipsOf(org).delete(k);
    rollUp(org, record, -1);
  }
}

/** The campaign's member counts, which Salesforce keeps up to date itself. */
function rollUp(org: Org, member: SalesforceRecord, by: 1 | -1) {
  const campaign = org.byId.get('campaign')?.get(String(member.CampaignId));
  if (!campaign) return;
  const counter = member.ContactId ? 'NumberOfContacts' : 'NumberOfLeads';
  campaign[counter] = (Number(campaign[counter]) || 0) + by;
}

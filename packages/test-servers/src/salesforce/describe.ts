import { textTypes, type SalesforceFieldType } from './field-types';
import { keyPrefixes } from './ids';
import type { ObjectSchema, Org } from './org';

/** The REST API's describe answers: the object list (`/sobjects`) and one object's fields. */

const labelOf = (name: string) =>
  name
    .replace(/__c$/, '')
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2');

export function describeSummary(schema: ObjectSchema, version: string) {
  const prefix = keyPrefixes[schema.name as keyof typeof keyPrefixes] ?? null;
  const custom = schema.name.endsWith('__c');
  return {
    name: schema.name,
    label: labelOf(schema.name),
    labelPlural: `${labelOf(schema.name)}s`,
    keyPrefix: prefix,
    custom,
    queryable: true,
    retrieveable: true,
    searchable: true,
    createable: false,
    updateable: false,
    deletable: false,
    urls: {
      sobject: `/services/data/v${version}/sobjects/${schema.name}`,
      describe: `/services/data/v${version}/sobjects/${schema.name}/describe`,
      rowTemplate: `/services/data/v${version}/sobjects/${schema.name}/{ID}`,
    },
  };
}

const soapTypes: Partial<Record<SalesforceFieldType, string>> = {
  id: 'tns:ID',
  reference: 'tns:ID',
  boolean: 'xsd:boolean',
  int: 'xsd:int',
  double: 'xsd:double',
  currency: 'xsd:double',
  percent: 'xsd:double',
  date: 'xsd:date',
  datetime: 'xsd:dateTime',
};

export function describe(schema: ObjectSchema, version: string, org: Org) {
  const records = org.records.get(schema.name.toLowerCase()) ?? [];
  return {
    ...describeSummary(schema, version),
    fields: schema.fields.map((f) => {
      const text = textTypes.has(f.type);
      const values =
        f.type === 'picklist'
          ? [...new Set(records.map((r) => r[f.name]).filter((v) => typeof v === 'string'))]
          : [];
      return {
        name: f.name,
        label: f.label ?? labelOf(f.name),
        type: f.type,
        soapType: soapTypes[f.type] ?? 'xsd:string',
        length:
          f.type === 'id' || f.type === 'reference' ? 18 : text ? (f.type === 'textarea' ? 32000 : 255) : 0,
        custom: f.name.endsWith('__c'),
        nillable: f.name !== 'Id' && f.type !== 'boolean',
        filterable: true,
        sortable: f.type !== 'textarea',
        groupable: f.type !== 'textarea',
        calculated: false,
        idLookup: f.name === 'Id',
        createable: f.type !== 'id',
        updateable: f.type !== 'id',
        referenceTo: f.referenceTo ?? [],
        relationshipName: f.relationshipName ?? null,
        picklistValues: values.map((value) => ({ active: true, defaultValue: false, label: value, value })),
      };
    }),
    childRelationships: [...org.schemas.values()].flatMap((child) =>
      child.fields
        .filter((f) => f.referenceTo?.includes(schema.name))
        .map((f) => ({
          childSObject: child.name,
          field: f.name,
          relationshipName: child.name === 'CampaignMember' ? 'CampaignMembers' : null,
          cascadeDelete: false,
        })),
    ),
  };
}

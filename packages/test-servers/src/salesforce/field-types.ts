/** Salesforce's field types, as describe names them, and the shapes of their values in SOQL. */

export type SalesforceFieldType =
  | 'id'
  | 'reference'
  | 'string'
  | 'textarea'
  | 'picklist'
  | 'email'
  | 'url'
  | 'phone'
  | 'boolean'
  | 'int'
  | 'double'
  | 'currency'
  | 'percent'
  | 'date'
  | 'datetime';

/** A field as describe names it; `referenceTo` and `relationshipName` for a lookup. */
export type SalesforceField = {
  name: string;
  type: SalesforceFieldType;
  label?: string;
  referenceTo?: string[];
  relationshipName?: string;
};

export const numericTypes = new Set<SalesforceFieldType>(['int', 'double', 'currency', 'percent']);
export const textTypes = new Set<SalesforceFieldType>([
  'string',
  'textarea',
  'picklist',
  'email',
  'url',
  'phone',
]);

export const isoDate = /^\d{4}-\d{2}-\d{2}$/;
export const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:?\d{2})$/;
export const idShape = /^[a-z0-9]{15}(?:[a-z0-9]{3})?$/i;

import { located, SalesforceApiError } from './errors';
import type { SalesforceField } from './field-types';
import type { ObjectSchema, Org, SalesforceRecord } from './org';
import type { Path } from './soql-parser';

/** Field paths (`Contact.Account.Industry`) resolved against the org's schemas, and followed on a record. */

/** A field path resolved against the schema: the lookups to follow, then the field. */
export type ResolvedPath = {
  hops: { field: SalesforceField; schema: ObjectSchema }[];
  field: SalesforceField;
  names: string[];
};

export function resolvePath(org: Org, root: ObjectSchema, path: Path, soql: string): ResolvedPath {
  const parts = path.text.split('.');
  // `Contact.Title` on Contact may name the object itself first.
  if (
    parts.length > 1 &&
    parts[0]!.toLowerCase() === root.name.toLowerCase() &&
    !root.byRelationship.has(parts[0]!.toLowerCase())
  ) {
    parts.shift();
  }
  let schema = root;
  const hops: ResolvedPath['hops'] = [];
  const names: string[] = [];
  for (const part of parts.slice(0, -1)) {
    const lookupField = schema.byRelationship.get(part.toLowerCase());
    const target = lookupField?.referenceTo?.[0] && org.schemas.get(lookupField.referenceTo[0].toLowerCase());
    if (!lookupField || !target) {
      throw new SalesforceApiError(
        400,
        'INVALID_FIELD',
        located(
          soql,
          path.pos,
          `Didn't understand relationship '${part}' in field path. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name. Please reference your WSDL or the describe call for the appropriate names.`,
        ),
      );
    }
    hops.push({ field: lookupField, schema });
    names.push(lookupField.relationshipName!);
    schema = target;
  }
  const last = parts.at(-1)!;
  const found = schema.byName.get(last.toLowerCase());
  if (!found) {
    throw new SalesforceApiError(
      400,
      'INVALID_FIELD',
      located(
        soql,
        path.pos,
        `No such column '${last}' on entity '${schema.name}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names.`,
      ),
    );
  }
  names.push(found.name);
  return { hops, field: found, names };
}

export function valueAt(org: Org, record: SalesforceRecord, path: ResolvedPath): unknown {
  let current: SalesforceRecord | undefined = record;
  for (const hop of path.hops) {
    const id: unknown = current[hop.field.name];
    const target: string = hop.field.referenceTo![0]!.toLowerCase();
    current = typeof id === 'string' ? org.byId.get(target)?.get(id) : undefined;
    if (!current) return null;
  }
  return current[path.field.name] ?? null;
}

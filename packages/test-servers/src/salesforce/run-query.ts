import { located, SalesforceApiError } from './errors';
import type { Org, SalesforceRecord } from './org';
import { compile } from './soql-conditions';
import type { SoqlQuery } from './soql-parser';
import { resolvePath, valueAt } from './soql-paths';

/** A parsed query run over the org: filtered, sorted, limited, and shaped as the REST API returns records. */

function sortKey(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.toLowerCase();
  return value as number | boolean;
}

/** Runs a parsed query: the matching records, shaped as the REST API returns them. */
export function runQuery(
  org: Org,
  query: SoqlQuery,
  soql: string,
  version: string,
): { totalSize: number; records: Record<string, unknown>[] } {
  const root = org.schemas.get(query.object.toLowerCase());
  if (!root) {
    throw new SalesforceApiError(
      400,
      'INVALID_TYPE',
      located(
        soql,
        query.objectPos,
        `sObject type '${query.object}' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names.`,
      ),
    );
  }
  const selected = query.fields === 'count' ? [] : query.fields.map((f) => resolvePath(org, root, f, soql));
  const where = query.where ? compile(org, root, query.where, soql) : () => true;
  const order = query.orderBy.map((o) => ({ ...o, resolved: resolvePath(org, root, o.path, soql) }));
  let matches = (org.records.get(root.name.toLowerCase()) ?? []).filter(where);
  if (order.length > 0) {
    matches = [...matches].sort((a, b) => {
      for (const o of order) {
        const x = sortKey(valueAt(org, a, o.resolved));
        const y = sortKey(valueAt(org, b, o.resolved));
        if (x === y) continue;
        if (x === null) return o.nullsLast ? 1 : -1;
        if (y === null) return o.nullsLast ? -1 : 1;
        const c = x < y ? -1 : 1;
        return o.descending ? -c : c;
      }
      return 0;
    });
  }
  matches = matches.slice(
    query.offset ?? 0,
    query.limit === undefined ? undefined : (query.offset ?? 0) + query.limit,
  );
  if (query.fields === 'count') return { totalSize: matches.length, records: [] };
  const attributes = (type: string, id: string) => ({
    type,
    url: `/services/data/v${version}/sobjects/${type}/${id}`,
  });
  const shape = (record: SalesforceRecord) => {
    const out: Record<string, unknown> = { attributes: attributes(root.name, record.Id) };
    for (const path of selected) {
      let target = out;
      let current: SalesforceRecord | undefined = record;
      let hopIndex = 0;
      for (; hopIndex < path.hops.length; hopIndex += 1) {
        const hop = path.hops[hopIndex]!;
        const name = path.names[hopIndex]!;
        const id: unknown = current[hop.field.name];
        const type = hop.field.referenceTo![0]!;
        current = typeof id === 'string' ? org.byId.get(type.toLowerCase())?.get(id) : undefined;
        if (!current) {
          if (!(name in target)) target[name] = null;
          break;
        }
        const existing = target[name];
        if (existing === null || typeof existing !== 'object') {
          target[name] = { attributes: attributes(org.schemas.get(type.toLowerCase())!.name, current.Id) };
        }
        target = target[name] as Record<string, unknown>;
      }
      if (hopIndex === path.hops.length && current)
        target[path.field.name] = current[path.field.name] ?? null;
    }
    return out;
  };
  return { totalSize: matches.length, records: matches.map(shape) };
}

import { located, SalesforceApiError } from './errors';
import { idShape, numericTypes, textTypes, type SalesforceField } from './field-types';
import type { ObjectSchema, Org, SalesforceRecord } from './org';
import type { Condition, Literal } from './soql-parser';
import { resolvePath, valueAt } from './soql-paths';

/**
 * A WHERE clause compiled to a test on a record: each literal checked against its field's type
 * first (Salesforce refuses a quoted number or an Id that is not one), then compared as
 * Salesforce compares (text case-insensitively, Ids in their 15- or 18-character forms).
 */

/** Refuses a literal of the wrong kind for the field, as Salesforce does. */
function checkLiteral(field: SalesforceField, literal: Literal, soql: string, pos: number) {
  const refuse = (message: string) =>
    new SalesforceApiError(400, 'INVALID_QUERY_FILTER_OPERATOR', located(soql, pos, message));
  if (literal.kind === 'null') return;
  const t = field.type;
  if (t === 'id' || t === 'reference') {
    if (literal.kind !== 'string') {
      throw refuse(
        `value of filter criterion for field '${field.name}' must be of type id and should be enclosed in quotes`,
      );
    }
    if (!idShape.test(literal.value)) throw refuse(`invalid ID field: ${literal.value}`);
  } else if (textTypes.has(t)) {
    if (literal.kind !== 'string') {
      throw refuse(
        `value of filter criterion for field '${field.name}' must be of type string and should be enclosed in quotes`,
      );
    }
  } else if (literal.kind !== (t === 'boolean' ? 'boolean' : numericTypes.has(t) ? 'number' : t)) {
    const kind = t === 'boolean' ? 'boolean' : numericTypes.has(t) ? 'double' : t;
    throw refuse(
      `value of filter criterion for field '${field.name}' must be of type ${kind} and should not be enclosed in quotes`,
    );
  }
}

function sameId(a: string, b: string) {
  return a === b || (b.length === 15 && a.slice(0, 15) === b) || (a.length === 15 && b.slice(0, 15) === a);
}

/** Compares a field's value with a literal: negative, zero, positive; undefined when unordered. */
function compareValue(field: SalesforceField, value: unknown, literal: Literal): number | undefined {
  if (value === null || value === undefined || literal.kind === 'null') return undefined;
  if (field.type === 'id' || field.type === 'reference') {
    return sameId(String(value), (literal as { value: string }).value)
      ? 0
      : String(value) < String((literal as { value: string }).value)
        ? -1
        : 1;
  }
  if (literal.kind === 'number') return Number(value) - literal.value;
  if (literal.kind === 'boolean') return value === literal.value ? 0 : 1;
  if (literal.kind === 'datetime') return Date.parse(String(value)) - Date.parse(literal.value);
  const a = String(value).toLowerCase();
  const b = String(literal.value).toLowerCase();
  return a === b ? 0 : a < b ? -1 : 1;
}

/** SOQL LIKE: `%` any run, `_` one character, a character after `\` itself; case-insensitive. */
function likeMatches(value: string, pattern: string): boolean {
  const items: { any?: boolean; one?: boolean; char?: string }[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      items.push({ char: pattern[i + 1]! });
      i += 1;
    } else if (c === '%') items.push({ any: true });
    else if (c === '_') items.push({ one: true });
    else items.push({ char: c.toLowerCase() });
  }
  const text = value.toLowerCase();
  // Reachable pattern positions after each character: linear in text × pattern.
  let states = new Set<number>([0]);
  const close = (set: Set<number>) => {
    for (const s of [...set].sort((x, y) => x - y)) {
      if (items[s]?.any) set.add(s + 1);
    }
    return set;
  };
  states = close(states);
  for (const ch of text) {
    const nextStates = new Set<number>();
    for (const s of states) {
      const item = items[s];
      if (!item) continue;
      if (item.any) nextStates.add(s);
      else if (item.one || item.char === ch) nextStates.add(s + 1);
    }
    states = close(nextStates);
    if (states.size === 0) return false;
  }
  return states.has(items.length);
}

type CompiledCondition = (record: SalesforceRecord) => boolean;

export function compile(org: Org, root: ObjectSchema, condition: Condition, soql: string): CompiledCondition {
  switch (condition.kind) {
    case 'and': {
      const parts = condition.parts.map((p) => compile(org, root, p, soql));
      return (r) => parts.every((p) => p(r));
    }
    case 'or': {
      const parts = condition.parts.map((p) => compile(org, root, p, soql));
      return (r) => parts.some((p) => p(r));
    }
    case 'not': {
      const part = compile(org, root, condition.part, soql);
      return (r) => !part(r);
    }
    case 'like': {
      const path = resolvePath(org, root, condition.path, soql);
      if (!textTypes.has(path.field.type)) {
        throw new SalesforceApiError(
          400,
          'INVALID_QUERY_FILTER_OPERATOR',
          located(soql, condition.pos, `invalid operator on ${path.field.type} field: LIKE`),
        );
      }
      return (r) => {
        const value = valueAt(org, r, path);
        return typeof value === 'string' && likeMatches(value, condition.pattern);
      };
    }
    case 'in': {
      const path = resolvePath(org, root, condition.path, soql);
      for (const l of condition.literals) checkLiteral(path.field, l, soql, condition.pos);
      return (r) => {
        const value = valueAt(org, r, path);
        const found = condition.literals.some((l) =>
          l.kind === 'null' ? value === null : compareValue(path.field, value, l) === 0,
        );
        return condition.negated ? !found : found;
      };
    }
    case 'compare': {
      const path = resolvePath(org, root, condition.path, soql);
      checkLiteral(path.field, condition.literal, soql, condition.pos);
      const { op, literal } = condition;
      return (r) => {
        const value = valueAt(org, r, path);
        if (literal.kind === 'null') {
          if (op === '=') return value === null;
          if (op === '!=') return value !== null;
          return false;
        }
        const c = compareValue(path.field, value, literal);
        if (c === undefined) return op === '!=';
        switch (op) {
          case '=':
            return c === 0;
          case '!=':
            return c !== 0;
          case '<':
            return c < 0;
          case '<=':
            return c <= 0;
          case '>':
            return c > 0;
          default:
            return c >= 0;
        }
      };
    }
  }
}

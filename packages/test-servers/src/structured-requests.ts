import type { RecordedRequest, StructuredRequest } from './scripted-replies';

/**
 * What a chat request asked for instead of text (a JSON schema's answer, a tool call), and an
 * object made up from a JSON schema for a structured request with no reply queued.
 */

type ToolDefinition = { type?: string; function?: { name?: string; parameters?: unknown } };

/** What the request asked for instead of text, from its response_format, tools and tool_choice. */
export function structuredRequestOf(body: RecordedRequest['body']): StructuredRequest | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as ToolDefinition[]) : [];
  if (tools.length > 0 && body.tool_choice !== 'none') {
    const choice = body.tool_choice as { function?: { name?: string } } | string | undefined;
    const named = typeof choice === 'object' && choice !== null ? choice.function?.name : undefined;
    const tool = tools.find((t) => named !== undefined && t.function?.name === named) ?? tools[0]!;
    return { mode: 'tool', name: tool.function?.name ?? 'tool', schema: tool.function?.parameters };
  }
  const format = body.response_format as
    { type?: string; json_schema?: { name?: string; schema?: unknown } } | undefined;
  if (format?.type === 'json_schema') {
    return {
      mode: 'json-schema',
      name: format.json_schema?.name ?? 'response',
      schema: format.json_schema?.schema,
    };
  }
  return undefined;
}

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

const sampleText = 'Przykładowy tekst odpowiedzi.';
const sampleFormats: Record<string, string> = {
  'date-time': '2026-01-15T10:00:00.000Z',
  date: '2026-01-15',
  time: '10:00:00',
  email: 'jan.kowalski@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/**
 * A value that fits a JSON schema (as the AI SDK sends it for a zod schema): every property
 * filled, arrays with their least number of items (at least one), strings of a Polish sample
 * text within their length limits, the first of an enum. Patterns are not honoured.
 */
export function sampleFromSchema(schema: unknown, root: unknown = schema, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 12) return null;
  const s = schema as JsonSchema;
  if (s.$ref?.startsWith('#')) {
    const target = s.$ref
      .slice(1)
      .split('/')
      .filter(Boolean)
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);
    return sampleFromSchema(target, root, depth + 1);
  }
  if ('const' in s) return s.const;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const options = s.anyOf ?? s.oneOf;
  if (options && options.length > 0) {
    const option = options.find((o) => o.type !== 'null') ?? options[0];
    return sampleFromSchema(option, root, depth + 1);
  }
  if (s.allOf && s.allOf.length > 0) {
    const parts = s.allOf.map((part) => sampleFromSchema(part, root, depth + 1));
    return parts.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p))
      ? Object.assign({}, ...parts)
      : parts[0];
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type ?? (s.properties ? 'object' : s.items ? 'array' : undefined)) {
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([key, property]) => [
          key,
          sampleFromSchema(property, root, depth + 1),
        ]),
      );
    case 'array': {
      const count = Math.min(Math.max(s.minItems ?? 1, 1), s.maxItems ?? Number.POSITIVE_INFINITY);
      const items = s.items;
      return Array.from({ length: count }, (_, i) =>
        sampleFromSchema(Array.isArray(items) ? items[i] : items, root, depth + 1),
      );
    }
    case 'string': {
      const formatted = s.format ? sampleFormats[s.format] : undefined;
      if (formatted) return formatted;
      let text = sampleText;
      while (s.minLength !== undefined && text.length < s.minLength) text += ` ${sampleText}`;
      return s.maxLength !== undefined ? text.slice(0, s.maxLength) : text;
    }
    case 'integer':
    case 'number': {
      const low =
        s.minimum ??
        (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined) ??
        Math.min(1, s.maximum ?? 1, s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1);
      return type === 'integer' ? Math.ceil(low) : low;
    }
    case 'boolean':
      return true;
    default:
      return null;
  }
}

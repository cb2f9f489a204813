import type { z } from 'zod';

/**
 * A structured answer read the way real models write it. JSON-schema and tool modes both leave
 * the model room to deviate: GPT-4o, Claude, Llama 3 and Mistral put the JSON in a ```json fence,
 * write a sentence before it, add "Let me know…" after it, or (a model that answers a tool call
 * as text) wrap it in `{"name": tool, "parameters": {…}}`. The answer is taken as it is when it
 * can be; otherwise the fence's content, then each JSON object found in it (balanced braces,
 * strings skipped), then the span from its first `{` to its last `}`, each validated against the
 * schema. The first one that validates is the object; when none does, the first thing wrong with
 * the most promising one is the issue a repair turn names.
 */

/** Where the object was found. */
export type Salvage = 'as-is' | 'fenced' | 'embedded-object' | 'outermost-braces' | 'tool-envelope';

/** What is wrong with an answer: a path into the object ('' for the whole answer) and why. */
export type AnswerIssue = { path: string; message: string };

export type ParsedAnswer<T> =
  | { ok: true; object: T; salvage: Salvage }
  | {
      ok: false;
      issue: AnswerIssue;
      /** Some JSON parsed, but did not match the schema. */ parsedJson: boolean;
    };

/** How many embedded objects are tried (each is a linear scan of the answer). */
const EMBEDDED_TRIED = 8;

const FENCE = '```';

/** The content of the first code fence (to the end of the text when it is never closed). */
function fenced(text: string): string | undefined {
  const open = text.indexOf(FENCE);
  if (open < 0) return undefined;
  const lineEnd = text.indexOf('\n', open + FENCE.length);
  if (lineEnd < 0) return undefined;
  const close = text.indexOf(FENCE, lineEnd + 1);
  return text.slice(lineEnd + 1, close < 0 ? undefined : close);
}

/** The end (exclusive) of the JSON object that opens at `start`, or -1 when it never closes. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '{') {
      depth += 1;
    } else if (c === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The texts that may hold the object, in the order they are tried. */
function* candidates(text: string): Generator<{ json: string; salvage: Salvage }> {
  const trimmed = text.trim();
  yield { json: trimmed, salvage: 'as-is' };
  const fence = fenced(trimmed);
  if (fence !== undefined) yield { json: fence.trim(), salvage: 'fenced' };
  let from = trimmed.indexOf('{');
  for (let tried = 0; from >= 0 && tried < EMBEDDED_TRIED; tried += 1) {
    const end = objectEnd(trimmed, from);
    if (end < 0) break;
    yield { json: trimmed.slice(from, end), salvage: 'embedded-object' };
    from = trimmed.indexOf('{', from + 1);
  }
  const first = trimmed.indexOf('{');
  const last = trimmed.lastIndexOf('}');
  if (first >= 0 && last > first) yield { json: trimmed.slice(first, last + 1), salvage: 'outermost-braces' };
}

function parseJson(json: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(json) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The arguments of `{"name": tool, "parameters" | "arguments": {…}}`, as a model that answers a tool call in text writes it. */
function envelopeArguments(value: unknown, toolName: string | undefined): unknown {
  if (toolName === undefined || typeof value !== 'object' || value === null) return undefined;
  const envelope = value as Record<string, unknown>;
  if (envelope.name !== toolName) return undefined;
  const args = envelope.parameters ?? envelope.arguments;
  if (typeof args === 'string') {
    const parsed = parseJson(args);
    return parsed.ok ? parsed.value : undefined;
  }
  return typeof args === 'object' && args !== null ? args : undefined;
}

/** A zod issue's path as text: `briefUpdates.channels[2]`. */
export function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

/**
 * The answer's object, validated against `schema` (its defaults and transforms applied), or the
 * first issue of the most promising candidate. `toolName`: the tool the answer should have called,
 * for an answer that wrote the call as text.
 */
export async function parseAnswer<T>(
  text: string,
  schema: z.ZodType<T>,
  toolName?: string,
): Promise<ParsedAnswer<T>> {
  let firstIssue: AnswerIssue | undefined;
  const seen = new Set<string>();
  for (const candidate of candidates(text)) {
    if (seen.has(candidate.json)) continue;
    seen.add(candidate.json);
    const parsed = parseJson(candidate.json);
    if (!parsed.ok) continue;
    const tries: { value: unknown; salvage: Salvage }[] = [
      { value: parsed.value, salvage: candidate.salvage },
    ];
    const inner = envelopeArguments(parsed.value, toolName);
    if (inner !== undefined) tries.push({ value: inner, salvage: 'tool-envelope' });
    for (const attempt of tries) {
      const result = await schema.safeParseAsync(attempt.value);
      if (result.success) return { ok: true, object: result.data, salvage: attempt.salvage };
      const [issue] = result.error.issues;
      firstIssue ??= {
        path: pathText(issue?.path ?? []),
        message: issue?.message ?? 'does not match the schema',
      };
    }
  }
  if (firstIssue) return { ok: false, issue: firstIssue, parsedJson: true };
  const opens = text.indexOf('{');
  return {
    ok: false,
    parsedJson: false,
    issue: {
      path: '',
      message:
        text.trim() === ''
          ? 'The answer is empty: no JSON object.'
          : opens >= 0 && objectEnd(text, opens) < 0
            ? 'The JSON object is not closed: the answer ends inside it.'
            : 'The answer holds no valid JSON object.',
    },
  };
}

/** Where the object begins in an answer still being written (after a fence or a sentence), or -1. */
export const objectStart = (text: string): number => text.indexOf('{');

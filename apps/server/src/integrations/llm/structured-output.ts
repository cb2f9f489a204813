import { cutAtGrapheme } from '@gem/contracts/text-rules';
import { InvalidToolInputError, Output, parsePartialJson, tool, ToolChoiceViolationError } from 'ai';
import { objectStart, parseAnswer } from './structured-answer';
import {
  LlmError,
  REJECTED_TEXT_MAX,
  type FinishReason,
  type ObjectModelRequest,
  type ObjectModelResult,
  type RejectedAnswer,
  type StructuredOutputMode,
  type TokenUsage,
} from './text-model';

/**
 * How the adapter asks for an object and reads the answer: the schema as the answer's JSON
 * schema (`response_format` json_schema) or as one function tool the model must call; what the
 * model wrote read as real models write it (structured-answer.ts), partial objects from the
 * first `{`.
 */

/** The model answered, but not with an object we can use. */
export class InvalidOutput extends Error {
  override name = 'InvalidOutput';
  constructor(
    reason: string,
    readonly rejected: RejectedAnswer,
  ) {
    super(reason);
  }
}

/** An object cut at the output limit before it closed; asked for once more. */
export class CutOff extends LlmError {
  constructor(readonly usage: TokenUsage) {
    super('incomplete', "the AI service's answer was cut at the output limit before its object was whole");
  }
}

/** Why a structured answer could not be used, for the LlmError's message. */
export function invalidOutputReason(err: unknown): string | undefined {
  if (err instanceof InvalidOutput) return err.message;
  if (ToolChoiceViolationError.isInstance(err)) return 'did not call the tool it was asked to call';
  return undefined;
}

/** A structured answer as it came, before it is read. */
export type RawAnswer = {
  /** The content, the tool call's arguments, or (a call written as text) the content. */
  text: string;
  finishReason: FinishReason;
  usage: TokenUsage;
  model: string;
  /** The object, when the SDK could already read and validate it. */
  validated?: { object: unknown } | undefined;
  /** The model was asked to call a tool and did not. */
  noToolCall?: string | undefined;
};

/** The text of a tool call's arguments the SDK could not use. */
export function toolInputText(call: { input: unknown; error?: unknown }): string {
  if (InvalidToolInputError.isInstance(call.error)) return call.error.toolInput;
  return typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? '');
}

/** The partial object in `text` so far (from its first `{`), unless it is the one last published. */
export async function partialOf(text: string, last: { key?: string }): Promise<object | undefined> {
  const start = objectStart(text);
  if (start < 0) return undefined;
  const parsed = await parsePartialJson(text.slice(start));
  if (parsed.state !== 'successful-parse' && parsed.state !== 'repaired-parse') return undefined;
  const { value } = parsed;
  if (typeof value !== 'object' || value === null) return undefined;
  const key = JSON.stringify(value);
  if (key === last.key) return undefined;
  last.key = key;
  return value;
}

/**
 * The object in a structured answer, read as real models write it; an answer cut before its
 * object closed is a CutOff, any other unusable one an InvalidOutput with what a repair needs.
 */
export async function readObject<T>(
  raw: RawAnswer,
  request: ObjectModelRequest<T>,
  shape: Shape,
  /** Told how an answer was read around what the model added (counted in the logs). */
  salvaged?: (fields: { mode: StructuredOutputMode; salvage: string; finishReason: FinishReason }) => void,
): Promise<ObjectModelResult<T>> {
  const done = (object: unknown) =>
    ({
      object: object as T,
      usage: raw.usage,
      model: raw.model,
      finishReason: raw.finishReason,
    }) satisfies ObjectModelResult<T>;
  if (raw.validated) return done(raw.validated.object);
  const parsed = await parseAnswer(raw.text, request.schema, shape.mode === 'tool' ? shape.name : undefined);
  if (parsed.ok) {
    salvaged?.({ mode: shape.mode, salvage: parsed.salvage, finishReason: raw.finishReason });
    return done(parsed.object);
  }
  if (raw.finishReason === 'length') throw new CutOff(raw.usage);
  const reason =
    raw.noToolCall !== undefined && !parsed.parsedJson
      ? `did not call the tool ${raw.noToolCall}`
      : parsed.parsedJson
        ? 'does not match the schema'
        : 'is not valid JSON';
  throw new InvalidOutput(reason, {
    text: cutAtGrapheme(raw.text, REJECTED_TEXT_MAX),
    path: parsed.issue.path,
    message: parsed.issue.message,
  });
}

/** How an object was asked for, as reading its answer needs to know. */
export type Shape = { mode: StructuredOutputMode; name: string };

/**
 * The schema as the call's output (json-schema) or as the one tool the model must call: as the
 * call asks, else as configured (GEM_AI_STRUCTURED_OUTPUT).
 */
export function structured<T>(
  request: ObjectModelRequest<T>,
  configured: StructuredOutputMode = 'json-schema',
) {
  const name = request.schemaName ?? 'answer';
  if ((request.mode ?? configured) === 'tool') {
    return {
      mode: 'tool' as const,
      name,
      settings: {
        tools: { [name]: tool({ description: request.schemaDescription, inputSchema: request.schema }) },
        toolChoice: { type: 'tool' as const, toolName: name },
      },
    };
  }
  const output = Output.object({
    schema: request.schema,
    name: request.schemaName,
    description: request.schemaDescription,
  });
  return {
    mode: 'json-schema' as const,
    name,
    settings: {
      output: {
        ...output,
        // Partial objects from the first `{`, after a fence or a sentence; the SDK streams no
        // text it cannot read as one.
        parsePartialOutput: ({ text }: { text: string }) => {
          const start = objectStart(text);
          return start < 0
            ? Promise.resolve(undefined)
            : output.parsePartialOutput({ text: text.slice(start) });
        },
      },
    },
  };
}

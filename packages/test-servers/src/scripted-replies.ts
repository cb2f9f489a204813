import type { ScriptedReply } from './openai-server';

/** How scripted replies stream (tokens, JSON fragments), and what makes one valid over HTTP. */

/** Splits text into stream tokens: words with their following whitespace. */
export function tokenize(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits JSON text into stream fragments of `size` characters (code points). */
export function fragments(text: string, size = 8): string[] {
  const chars = Array.from(text);
  const step = Math.max(1, Math.floor(size));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += step) out.push(chars.slice(i, i + step).join(''));
  return out;
}

/** Each reply kind, with what makes one valid (for replies scripted over HTTP). */
const replyKinds: Record<ScriptedReply['kind'], (r: Record<string, unknown>) => boolean> = {
  text: (r) => typeof r.text === 'string' && finishReasonFits(r),
  status: (r) => typeof r.status === 'number',
  hang: () => true,
  disconnect: (r) => typeof r.text === 'string' && typeof r.afterTokens === 'number',
  stall: (r) => typeof r.text === 'string' && typeof r.afterTokens === 'number',
  object: (r) => 'value' in r && finishReasonFits(r),
  'raw-json': (r) => typeof r.text === 'string' && finishReasonFits(r),
};

const finishReasons = new Set<unknown>(['stop', 'length', 'content_filter', 'tool_calls']);
const finishReasonFits = (r: Record<string, unknown>) =>
  r.finishReason === undefined || finishReasons.has(r.finishReason);

export function isReply(value: unknown): value is ScriptedReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as Record<string, unknown>;
  const valid = Object.hasOwn(replyKinds, String(reply.kind))
    ? replyKinds[reply.kind as ScriptedReply['kind']]
    : undefined;
  return valid !== undefined && valid(reply);
}

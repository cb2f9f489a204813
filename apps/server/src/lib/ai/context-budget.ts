/**
 * How much of the model's context a call takes, estimated without the model's own tokenizer
 * (GEM speaks to OpenAI, Anthropic, Llama and Mistral models, each with its own). Polish text
 * takes about one token per 3.5 characters in GPT-4o's and Llama 3's tokenizers and one per 2.5
 * in Mistral's; the estimate takes one per 3, plus a few per message for the chat format, and
 * the budget keeps a margin (decision 022). A call over it is refused before it is made, with
 * words that say how much to cut, instead of failing at the provider.
 */

/** Characters per token the estimate assumes. */
export const CHARACTERS_PER_TOKEN = 3;
/** What the chat format adds per message (role markers, separators). */
const TOKENS_PER_MESSAGE = 4;
/** The share of the context the estimate may fill; the rest covers its error. */
const USABLE_SHARE = 0.9;

/** The estimated tokens of a text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/** The estimated tokens of a call's prompt: its system prompt and every message. */
export function estimatePromptTokens(system: string, messages: readonly { content: string }[]): number {
  return (
    estimateTokens(system) +
    TOKENS_PER_MESSAGE * (messages.length + 1) +
    messages.reduce((sum, m) => sum + estimateTokens(m.content), 0)
  );
}

/** The tokens a call's prompt may take in a model of `contextTokens`, leaving room for `maxOutputTokens`. */
export function promptBudget(contextTokens: number, maxOutputTokens: number): number {
  return Math.max(0, Math.floor(contextTokens * USABLE_SHARE) - maxOutputTokens);
}

import type { WritingToolInput, WritingToolName } from '@gem/contracts/writing-tools';
import { createHash } from 'node:crypto';
import { articleTool } from './article/article.tool';
import { dataBlock } from '../../lib/ai/prompt-blocks';
import type { AnswerReader, OutputLimit, Prompt, WritingToolDefinition } from './generation-pipeline';
import { paidAdsTool } from './paid-ads/paid-ads.tool';
import { socialMediaPostTool } from './social-media-post/social-media-post.tool';
import { summarizeTool } from './summarize/summarize.tool';
import { teaserGeneratorTool } from './teaser-generator/teaser-generator.tool';

/** Every writing tool by name: their routes, and the campaigns' assets, make their calls from these. */
export const writingToolDefinitions: { [N in WritingToolName]: WritingToolDefinition<N> } = {
  article: articleTool,
  'social-media-post': socialMediaPostTool,
  summarize: summarizeTool,
  'paid-ads': paidAdsTool,
  'teaser-generator': teaserGeneratorTool,
};

/** What a call of a tool with this input sends and how its answer is read and limited. */
export function toolCall<N extends WritingToolName>(
  definition: WritingToolDefinition<N>,
  input: WritingToolInput<N>,
): {
  tool: N;
  input: WritingToolInput<N>;
  prompt: Prompt;
  reader: AnswerReader;
  limit: OutputLimit | undefined;
  maxOutputTokens: number;
} {
  return {
    tool: definition.name,
    input,
    prompt: definition.prompt(input),
    reader: definition.reader,
    limit: typeof definition.limit === 'function' ? definition.limit(input) : definition.limit,
    maxOutputTokens: definition.maxOutputTokens,
  };
}

/**
 * The version of the prompt a call was made with: the tool's name and a digest of the rules it
 * sent (its system prompt), so a generation's provenance says which rules wrote it.
 */
export const promptVersion = (tool: string, system: string) =>
  `${tool}@${createHash('sha256').update(system).digest('hex').slice(0, 8)}`;

/** The instructions the pages offer, as the model is told them; free text is sent as written. */
const instructionWords: Record<string, string> = {
  Shorter: 'Skróć tekst wyraźnie, zachowując najważniejszy przekaz i wezwanie do działania.',
  'More formal': 'Napisz tekst w bardziej formalnym, eleganckim tonie.',
  'For CFOs':
    'Dostosuj tekst do dyrektorów finansowych (CFO): konkret, liczby z treści bazowej, korzyści biznesowe.',
};

/** A regeneration: the tool's own prompt, with the current text and how it should change. */
export function revisionPrompt(prompt: Prompt, current: string, instruction: string): Prompt {
  return {
    system: prompt.system,
    user:
      `${prompt.user}\n\nPoniżej jest obecna wersja tekstu i polecenie, jak ją zmienić. ` +
      'Napisz tekst ponownie zgodnie z poleceniem, z zachowaniem zasad i limitu. ' +
      'Nie dodawaj faktów, których nie ma w treści bazowej ani w obecnej wersji.\n\n' +
      `${dataBlock('obecna_wersja', current)}\n\n${dataBlock('polecenie', instructionWords[instruction] ?? instruction)}`,
  };
}

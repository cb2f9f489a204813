import { writingAnswers, type WritingAnswerCase } from '@gem/test-servers/real-model-answers/writing';
import { describe, expect, it } from 'vitest';
import { articleTool } from '../src/modules/writing-tools/article/article.tool';
import { paidAdsTool } from '../src/modules/writing-tools/paid-ads/paid-ads.tool';
import { socialMediaPostTool } from '../src/modules/writing-tools/social-media-post/social-media-post.tool';
import { summarizeTool } from '../src/modules/writing-tools/summarize/summarize.tool';
import { teaserGeneratorTool } from '../src/modules/writing-tools/teaser-generator/teaser-generator.tool';
import { finalOf, parseEvents, useAiHarness } from './ai-harness';

/**
 * Issue 26: the answers real models give to GEM's writing prompts (packages/test-servers'
 * corpus), first as each tool reads them, then through the real routes, the AI adapter and the
 * OpenAI-compatible test server, streamed as a model streams them. Every one ends clean; one
 * that obeys passes unchanged.
 */

const readers = {
  article: articleTool.reader,
  'paid-ads': paidAdsTool.reader,
  summarize: summarizeTool.reader,
  'social-media-post': socialMediaPostTool.reader,
  'teaser-generator': teaserGeneratorTool.reader,
};

const shown = (c: WritingAnswerCase) => {
  const parsed = readers[c.tool].parse(c.answer);
  return { ...parsed.output(parsed.limited), problem: parsed.problem };
};

describe('the realistic-answer corpus', () => {
  it('has at least five answers per tool, from every model family, in Polish and English', () => {
    for (const tool of Object.keys(readers)) {
      const cases = writingAnswers.filter((c) => c.tool === tool);
      expect(cases.length, tool).toBeGreaterThanOrEqual(5);
      const obeys = (c: WritingAnswerCase) =>
        c.answer ===
        (c.analysis ? `## Analiza\n\n${c.analysis}\n\n## Tekst reklamy\n\n${c.expected}` : c.expected);
      expect(cases.some(obeys), `${tool}: an answer that obeys`).toBe(true);
    }
    expect(new Set(writingAnswers.map((c) => c.family))).toEqual(
      new Set(['gpt-4o', 'claude', 'llama-3', 'mistral']),
    );
    expect(writingAnswers.some((c) => /\b(?:Here|Sure|Let me)\b/.test(c.answer))).toBe(true);
  });

  it.each(writingAnswers.map((c) => [c.id, c] as const))('reads %s clean', (_id, c) => {
    const output = shown(c);
    expect(output.problem).toBeUndefined();
    if (c.tool === 'paid-ads') {
      expect(output.copy).toBe(c.expected);
      expect(output.analysis ?? '').toBe(c.analysis ?? '');
    } else {
      expect(output.text).toBe(c.expected);
    }
    expect(output.notes).toEqual(c.note ? [c.note] : undefined);
  });
});

describe('through the routes', () => {
  const h = useAiHarness();

  it.each(writingAnswers.map((c) => [c.id, c] as const))('shows %s clean', async (_id, c) => {
    h.ai.enqueue({ kind: 'text', text: c.answer });
    const res = await h.generate(c.tool, `corpus-${c.tool}`);
    expect(res.statusCode, res.body).toBe(200);
    const { output } = finalOf(parseEvents(res.body));
    // One call: a clean answer within its limit needs no second one.
    expect(h.ai.requests).toHaveLength(1);
    if (c.tool === 'paid-ads') {
      expect(output.copy).toBe(c.expected);
      expect(output.text).toBe(
        c.analysis
          ? `## Analiza\n\n${c.analysis}\n\n## Tekst reklamy\n\n${c.expected}`
          : `## Tekst reklamy\n\n${c.expected}`,
      );
    } else {
      expect(output.text).toBe(c.expected);
    }
    expect(output.notes).toEqual(c.note ? [c.note] : undefined);
    expect(output).toMatchObject({ shortened: false, truncated: false });
  });
});

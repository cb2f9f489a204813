import { describe, expect, it } from 'vitest';
import { CHARACTERS_PER_TOKEN, estimatePromptTokens, estimateTokens, promptBudget } from './context-budget';

describe('the context budget', () => {
  it('estimates a text at one token per three characters, rounded up', () => {
    expect(CHARACTERS_PER_TOKEN).toBe(3);
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(2);
    expect(estimateTokens('x'.repeat(30_000))).toBe(10_000);
  });

  it('counts the system prompt, every message and the chat format around them', () => {
    const messages = [{ content: 'x'.repeat(300) }, { content: 'y'.repeat(30) }];
    expect(estimatePromptTokens('s'.repeat(90), messages)).toBe(30 + 100 + 10 + 4 * 3);
  });

  it('leaves room for the answer and a margin for the estimate', () => {
    expect(promptBudget(32_000, 1_000)).toBe(27_800);
    expect(promptBudget(1_000, 2_000)).toBe(0);
  });
});

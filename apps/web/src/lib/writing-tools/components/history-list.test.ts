import { describe, expect, it } from 'vitest';

import { plainText, shorten } from './history-list';

describe('history entry text', () => {
  it('shows markdown as the words a reader sees', () => {
    expect(plainText('## Tytuł\n\nFirmy **coraz częściej** sięgają po _AI_.\n- jeden\n1. dwa\n> cytat')).toBe(
      'Tytuł\n\nFirmy coraz częściej sięgają po AI.\njeden\ndwa\ncytat',
    );
    expect(plainText('Więcej: [pełny raport](https://example.com) i `kod`')).toBe(
      'Więcej: pełny raport i kod',
    );
    expect(plainText('polish_business and snake_case_names')).toBe('polish_business and snake_case_names');
  });

  it('cuts to one line with an ellipsis', () => {
    expect(shorten('a\n\nb   c')).toBe('a b c');
    expect(shorten('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { storableText, toStorableText } from './storable-text';
import { isStorableText } from './text-rules';
import {
  generatePromptRequestSchema,
  writingToolInputSchemas,
  summarizePromptRequestSchema,
} from './writing-tools';

/** Text PostgreSQL cannot store is refused where it comes in, naming the field. */

const family = '👨‍👩‍👧‍👦';

describe('isStorableText', () => {
  it('accepts text with emoji, accents and line breaks', () => {
    for (const ok of ['', 'Zażółć gęślą jaźń', family, '🚀\r\n\ttab', 'a\u0001b', '\uffff', '\ud83d\ude80']) {
      expect(isStorableText(ok), JSON.stringify(ok)).toBe(true);
    }
  });

  it('refuses a NUL character and a surrogate without its pair, wherever it is', () => {
    for (const bad of [
      '\u0000',
      'a\u0000',
      '\u0000a',
      '\ud800',
      'a\ud800',
      '\ud800a',
      '\ud83d\ud83d\ude80', // a high surrogate, then a whole emoji
      '\ude80',
      'a\ude80b',
      `${family}\udc00`,
      family.slice(0, 1), // half of the first emoji
    ]) {
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('checks a long text in one pass', () => {
    expect(isStorableText('🚀'.repeat(100_000))).toBe(true);
    expect(isStorableText(`${'🚀'.repeat(100_000)}\ud800`)).toBe(false);
  });
});

describe('toStorableText', () => {
  it('replaces each NUL character and each surrogate without its pair, and nothing else', () => {
    expect(toStorableText('Zażółć 🚀 👨‍👩‍👧‍👦')).toBe('Zażółć 🚀 👨‍👩‍👧‍👦');
    expect(toStorableText('a\u0000b\ud800c\ude80🚀\ud83d')).toBe('a\ufffdb\ufffdc\ufffd🚀\ufffd');
    expect(isStorableText(toStorableText('\udc00\ud800\u0000'))).toBe(true);
  });
});

describe('storableText', () => {
  it('is a reusable refinement that names the field', () => {
    const schema = z.object({ message: storableText('The message').max(10) });
    const result = schema.safeParse({ message: 'a\u0000' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['message'],
        message: 'The message contains characters that cannot be stored (a NUL character or a broken emoji).',
      }),
    ]);
    expect(schema.parse({ message: 'ok 👍' })).toEqual({ message: 'ok 👍' });
  });

  it('guards every text field of every writing tool and both spec §7 calls', () => {
    const schemas = {
      ...writingToolInputSchemas,
      'generate-prompt': generatePromptRequestSchema,
      'summarize-prompt': summarizePromptRequestSchema,
    };
    let fields = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      const shape = schema.shape as Record<string, z.ZodType>;
      const valid: Record<string, unknown> = {};
      for (const [field, fieldSchema] of Object.entries(shape)) {
        valid[field] = fieldSchema instanceof z.ZodString ? 'Poprawny tekst.' : undefined;
      }
      // The non-text fields of the social post take their first allowed value.
      if (name === 'social-media-post') Object.assign(valid, { format: 200, persona: 'CEO' });
      expect(schema.safeParse(valid).success, name).toBe(true);

      for (const [field, fieldSchema] of Object.entries(shape)) {
        if (!(fieldSchema instanceof z.ZodString)) continue;
        fields += 1;
        for (const bad of ['przed\u0000po', 'emoji \ud83d']) {
          const result = schema.safeParse({ ...valid, [field]: bad });
          expect(result.success, `${name}.${field}`).toBe(false);
          expect(result.error?.issues).toEqual([
            expect.objectContaining({
              path: [field],
              message: expect.stringMatching(/^The \w+ contains characters that cannot be stored/),
            }),
          ]);
        }
      }
    }
    expect(fields).toBe(10);
  });
});

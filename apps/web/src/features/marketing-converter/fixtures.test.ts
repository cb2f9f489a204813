import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { convertVttToSrt } from './convert-vtt-to-srt';

// Each fixtures/<rule>.vtt has a hand-checked fixtures/<rule>.srt beside it (LF line endings;
// GEM writes CRLF, as SRT tools on Windows expect).
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const pairs = readdirSync(dir)
  .filter((name) => name.endsWith('.vtt'))
  .map((name) => name.replace(/\.vtt$/, ''));

describe('WebVTT → SRT fixtures', () => {
  it('has a fixture pair for every rule', () => {
    expect(pairs).toEqual(
      expect.arrayContaining([
        'bom-header-crlf',
        'cr-line-endings',
        'notes-styles-regions',
        'identifiers',
        'short-timestamps',
        'cue-settings',
        'tags',
        'entities',
        'wrap-47',
        'split-long-cues',
        'long-word',
        'order-and-empty-cues',
      ]),
    );
  });

  it.each(pairs)('%s', (name) => {
    const vtt = readFileSync(path.join(dir, `${name}.vtt`), 'utf8');
    const expected = readFileSync(path.join(dir, `${name}.srt`), 'utf8').replace(/\n/g, '\r\n');
    const result = convertVttToSrt(vtt);
    if (!result.ok) throw new Error(`${name}: ${result.problem.message}`);
    expect(result.srt).toBe(expected);
  });
});

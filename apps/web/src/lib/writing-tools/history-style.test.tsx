import type { StyleFinding } from '@gem/contracts/brand-voice';
import type { GenerationRecord } from '@gem/contracts/writing-tools';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { countFindings } from '@/lib/brand-voice/style-findings-logic';
import { serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { storedStyleOf } from './use-generation';

const server = serveApi();

const banned: StyleFinding = {
  id: 'banned:6:11',
  rule: 'banned',
  start: 6,
  end: 11,
  text: 'tanie',
  message: '„tanie” is a banned term.',
  reason: 'We do not compete on price.',
  fix: { replacement: 'przystępne', safe: true },
};

const record = (id: string, text: string, style?: GenerationRecord['style']): GenerationRecord => ({
  id,
  generator: 'teaser-generator',
  createdAt: '2026-11-20T10:00:00.000Z',
  input: { content: `Treść ${id}` },
  output: { text, shortened: false, truncated: false },
  outcome: 'succeeded',
  ...(style ? { style } : {}),
});

describe('a history entry put back in the output panel', () => {
  it('shows the style check stored with it; Apply all changes the copied text; an entry without one shows none', async () => {
    server.state.history['teaser-generator'] = [
      record('g-1', 'Nasze tanie usługi.', {
        findings: [banned],
        counts: countFindings([banned]),
        score: 80,
        version: 3,
      }),
      record('g-2', 'Stary tekst bez sprawdzenia.'),
    ];
    const view = renderRoute('/tools/teaser-generator');
    const history = await screen.findByRole('region', { name: 'Your recent outputs' });
    // Each output shown is a new panel: look it up after each choice.
    const output = () => screen.getByRole('region', { name: 'Check the output' });

    await view.user.click(await within(history).findByRole('button', { name: /Treść g-1/ }));
    expect(await within(output()).findByRole('button', { name: 'tanie (Banned term)' })).toBeVisible();
    expect(within(output()).getByText('Checked against brand profile version 3.')).toBeVisible();
    await view.user.click(within(output()).getByRole('button', { name: 'Apply all (1)' }));
    await view.user.click(within(output()).getByRole('button', { name: 'Copy to clipboard' }));
    expect(await navigator.clipboard.readText()).toBe('Nasze przystępne usługi.');

    await view.user.click(within(history).getByRole('button', { name: /Treść g-2/ }));
    expect(await within(output()).findByText('Stary tekst bez sprawdzenia.')).toBeVisible();
    expect(within(output()).queryByRole('button', { name: /Banned term/ })).toBeNull();
    expect(within(output()).queryByText(/Checked against brand profile/)).toBeNull();
    expect(within(output()).getByRole('button', { name: 'Check' })).toBeVisible();
  });
});

describe('storedStyleOf', () => {
  it('finds the entry the output came from, else one with the same text, else none', () => {
    const style = { findings: [], counts: countFindings([]), score: 100, version: 1 };
    const items = [record('a', 'Jeden.'), record('b', 'Dwa.', style)];
    expect(storedStyleOf(items, items[1]!.output!)).toBe(style);
    expect(storedStyleOf(items, { text: 'Dwa.', shortened: false, truncated: false })).toBe(style);
    expect(storedStyleOf(items, items[0]!.output!)).toBeNull();
    expect(storedStyleOf(items, { text: 'Trzy.', shortened: false, truncated: false })).toBeNull();
  });
});

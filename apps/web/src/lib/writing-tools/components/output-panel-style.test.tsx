import { brandVoicePaths, type StyleFinding } from '@gem/contracts/brand-voice';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { countFindings } from '@/lib/brand-voice/style-findings-logic';
import { final, json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { revisedOutput, styledText } from '../use-generation';

const server = serveApi();

const answer = 'Nasze **tanie** usługi doradcze.';
const banned: StyleFinding = {
  id: 'banned:8:13',
  rule: 'banned',
  start: 8,
  end: 13,
  text: 'tanie',
  message: '„tanie” is a banned term.',
  reason: 'We do not compete on price.',
  fix: { replacement: 'przystępne', safe: true },
};

async function generateArticle() {
  const view = renderRoute('/tools/article');
  await view.user.type(await screen.findByLabelText('Paste the base content'), 'Raport');
  await view.user.type(screen.getByLabelText('Describe the task for GEM'), 'Notka');
  await view.user.click(screen.getByRole('button', { name: 'Generate' }));
  const output = screen.getByRole('region', { name: 'Check the output' });
  return { ...view, output };
}

describe('the output panel’s style check', () => {
  it('shows the findings that came with the output; Apply all changes the copied text, Undo restores it', async () => {
    server.reply({
      kind: 'stream',
      events: [
        {
          ...final(answer),
          style: { findings: [banned], counts: countFindings([banned]), score: 80, version: 2 },
        },
      ],
    });
    const { user, output } = await generateArticle();
    // Marked in the formatted output itself (still bold), and the text shown once.
    const mark = await within(output).findByRole('button', { name: 'tanie (Banned term)' });
    expect(mark.closest('strong')).not.toBeNull();
    expect(within(output).getAllByText(/usługi doradcze/)).toHaveLength(1);
    expect(within(output).getByText('Checked against brand profile version 2.')).toBeVisible();
    // The mark takes the keyboard to its finding in the list.
    await user.click(mark);
    expect(document.activeElement?.textContent).toContain('„tanie” is a banned term.');
    await user.click(within(output).getByRole('button', { name: 'Apply all (1)' }));
    expect(within(output).getByText('przystępne').tagName).toBe('STRONG');
    await user.click(within(output).getByRole('button', { name: 'Copy to clipboard' }));
    expect(await navigator.clipboard.readText()).toBe('Nasze **przystępne** usługi doradcze.');
    await user.click(within(output).getByRole('button', { name: 'Undo' }));
    const back = within(output).getByRole('button', { name: 'tanie (Banned term)' });
    expect(back.closest('strong')).not.toBeNull();
  });

  it('checks the output as it is now on demand, for the tool as its target', async () => {
    const bodies: unknown[] = [];
    server.on('POST', brandVoicePaths.check, (_req, body, res) => {
      bodies.push(JSON.parse(body));
      json(res, 200, { findings: [], counts: countFindings([]), score: 100, version: null });
    });
    server.reply({ kind: 'stream', events: [final('Czysty tekst.')] });
    const { user, output } = await generateArticle();
    await user.click(await within(output).findByRole('button', { name: 'Check' }));
    expect(
      await within(output).findByText('Nothing found: the text follows the brand profile.'),
    ).toBeVisible();
    expect(bodies).toEqual([{ text: 'Czysty tekst.', target: 'article' }]);
  });
});

describe('revisedOutput', () => {
  it('changes paid ads’ copy, inside the whole text too, and leaves the analysis', () => {
    const output = {
      text: 'Analiza: tanie.\n\nKopia: tanie usługi.',
      analysis: 'Analiza: tanie.',
      copy: 'Kopia: tanie usługi.',
      shortened: false,
      truncated: false,
    };
    expect(revisedOutput(output, 'Kopia: dobre usługi.')).toEqual({
      ...output,
      text: 'Analiza: tanie.\n\nKopia: dobre usługi.',
      copy: 'Kopia: dobre usługi.',
    });
    expect(styledText(output)).toBe(output.copy);
  });
});

import { brandVoicePaths, type StyleFinding } from '@gem/contracts/brand-voice';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { countFindings } from '@/lib/brand-voice/style-findings-logic';

const server = serveApi();

const pasted = 'Nasze tanie usługi są najlepsze.';
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

describe('Check text page', () => {
  it('checks a pasted text for a chosen channel, marks the findings, applies all, undoes, and copies the text', async () => {
    const bodies: unknown[] = [];
    server.on('POST', brandVoicePaths.check, (_req, body, res) => {
      bodies.push(JSON.parse(body));
      json(res, 200, { findings: [banned], counts: countFindings([banned]), score: 90, version: 3 });
    });
    const { user } = renderRoute('/tools/brand-voice');
    expect(await screen.findByRole('heading', { level: 1, name: 'Check text' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Check text · GEM'));
    const field = screen.getByLabelText('Text to check');
    const check = screen.getByRole('button', { name: 'Check' });
    expect(check).toBeDisabled();
    await user.click(field);
    await user.paste(pasted);
    await user.selectOptions(screen.getByLabelText('What is it for? (optional)'), 'Paid ads (tool)');
    await user.click(check);

    const output = screen.getByRole('region', { name: 'Findings' });
    expect(await within(output).findByRole('button', { name: 'tanie (Banned term)' })).toBeVisible();
    expect(bodies).toEqual([{ text: pasted, target: 'paid-ads' }]);
    expect(within(output).getByText('Checked against brand profile version 3.')).toBeVisible();

    await user.click(within(output).getByRole('button', { name: 'Apply all (1)' }));
    expect(field).toHaveValue('Nasze przystępne usługi są najlepsze.');
    await user.click(within(output).getByRole('button', { name: 'Copy the text' }));
    expect(await navigator.clipboard.readText()).toBe('Nasze przystępne usługi są najlepsze.');
    await user.click(within(output).getByRole('button', { name: 'Undo' }));
    expect(field).toHaveValue(pasted);
  });

  it('says what to do when the check is refused', async () => {
    server.on('POST', brandVoicePaths.check, (_req, _body, res) =>
      json(res, 503, { error: { code: 'unavailable', message: 'x', requestId: 'r' } }),
    );
    const { user } = renderRoute('/tools/brand-voice');
    await user.type(await screen.findByLabelText('Text to check'), 'Tekst');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'GEM could not check the text just now. Try again in a moment.',
    );
  });
});

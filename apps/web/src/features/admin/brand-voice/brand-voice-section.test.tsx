import { brandVoicePaths, type BrandProfile, type BrandVersion } from '@gem/contracts/brand-voice';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { createQueryClient } from '@/lib/query-client';
import { json, serveApi } from '@/testing/api-server';

import { BrandVoiceSection } from './brand-voice-section';

const api = serveApi();

const profile: BrandProfile = {
  voice: {
    attributes: [
      { name: 'ekspercki', explanation: 'Wiemy dużo.' },
      { name: 'konkretny', explanation: 'Liczby.' },
      { name: 'spokojny', explanation: 'Bez krzyku.' },
    ],
    address: 'panstwo',
  },
  audienceNotes: 'Zarządy.',
  examples: [],
  preferred: [{ term: 'klient', replaces: ['petent'], reason: '' }],
  banned: [{ term: 'tani', reason: 'Brzmi źle.', replacement: 'przystępny' }],
  names: ['Deal Advisory'],
  disclaimers: [],
  facts: { serviceLines: ['Audyt'], offices: [], claims: [] },
  acronyms: [],
};

const version = (n: number, over: Partial<BrandProfile> = {}): BrandVersion => ({
  version: n,
  savedAt: '2026-11-20T09:00:00.000Z',
  savedBy: 'admin@example.com',
  note: null,
  counts: { banned: 1, preferred: 1, names: 1, disclaimers: 0 },
  profile: { ...profile, ...over },
  forms: [{ term: 'tani', words: [['tani', 'tania', 'taniego', 'tanich']], sources: ['dictionary-pl'] }],
});

function serve(current: () => BrandVersion) {
  api.on('GET', brandVoicePaths.adminProfile, (_req, _body, res) => json(res, 200, { current: current() }));
  api.on('GET', brandVoicePaths.adminVersions, (_req, _body, res) =>
    json(res, 200, { items: [current()].map(({ profile: _p, forms: _f, ...summary }) => summary) }),
  );
}

function renderSection() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <BrandVoiceSection />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('the brand voice section', () => {
  it('shows each term’s forms, and a name’s 400 at its line with what was typed kept', async () => {
    serve(() => version(3));
    const sent: { basedOn: unknown; profile: BrandProfile }[] = [];
    api.on('PUT', brandVoicePaths.adminProfile, (_req, body, res) => {
      sent.push(JSON.parse(body));
      json(res, 400, {
        error: {
          code: 'validation_failed',
          message: 'Some fields are not valid.',
          issues: [{ path: 'body.profile.names.1', message: 'The name is longer than 100 characters.' }],
        },
      });
    });
    const user = renderSection();
    const forms = await screen.findByRole('list', { name: 'Terms and their forms' });
    expect(forms).toHaveTextContent('tani → tania, taniego, tanich…');

    const names = screen.getByLabelText('Names (1)');
    await user.type(names, '{Enter}{Enter}Bardzo długa nazwa');
    await user.click(screen.getByRole('button', { name: 'Save as version 4' }));
    expect(await screen.findByText('Line 3: The name is longer than 100 characters.')).toBeVisible();
    expect(screen.getByLabelText('Names (2)')).toHaveValue('Deal Advisory\n\nBardzo długa nazwa');
    expect(sent[0]).toMatchObject({
      basedOn: 3,
      profile: { names: ['Deal Advisory', 'Bardzo długa nazwa'] },
    });
  });

  it('says someone else saved (409) and loads their version when asked', async () => {
    let current = version(3);
    serve(() => current);
    api.on('PUT', brandVoicePaths.adminProfile, (_req, _body, res) => {
      current = version(4, { banned: [{ term: 'kompleksowy', reason: 'Ogólnik.', replacement: '' }] });
      json(res, 409, {
        error: {
          code: 'conflict',
          message:
            'Someone saved version 4 of the brand profile while you were editing version 3. Reload it, then make your changes again.',
        },
      });
    });
    const user = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Paste many banned terms' }));
    await user.type(
      screen.getByLabelText(/Banned terms, one a line/),
      'nudny | Brzmi źle. | ciekawy{Enter}drogi',
    );
    await user.click(screen.getByRole('button', { name: 'Add these terms' }));
    const rows = within(screen.getByRole('list', { name: 'Banned terms' })).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByLabelText('Banned term'))).toHaveLength(3);
    expect(within(rows[1]!).getByLabelText('Replacement')).toHaveValue('ciekawy');

    await user.click(screen.getByRole('button', { name: 'Save as version 4' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone saved version 4 of the brand profile');
    await user.click(within(alert).getByRole('button', { name: 'Load the latest version' }));
    expect(await screen.findByRole('button', { name: 'Save as version 5' })).toBeVisible();
    expect(screen.getByDisplayValue('kompleksowy')).toBeVisible();
  });
});

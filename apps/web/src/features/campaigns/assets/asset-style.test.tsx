import { brandVoicePaths, type StyleFinding } from '@gem/contracts/brand-voice';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { campaign, fakeCampaignsApi } from '@/features/campaigns/testing/fake-campaigns-api';
import { countFindings } from '@/lib/brand-voice/style-findings-logic';
import { json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

import { fakeAssetsApi } from './testing/fake-assets-api';

const server = serveApi();
const campaigns = fakeCampaignsApi(server);
const api = fakeAssetsApi(server);

const text = 'Tanie szkolenie dla CFO.';
const banned: StyleFinding = {
  id: 'banned:0:5',
  rule: 'banned',
  start: 0,
  end: 5,
  text: 'Tanie',
  message: '„Tanie” is a banned term.',
  reason: 'We do not compete on price.',
  fix: { replacement: 'Przystępne', safe: true },
};

describe('an asset’s style check', () => {
  it('checks the asset against its channel; Apply all and Undo save the text as new versions', async () => {
    campaigns.state.campaigns = [campaign()];
    api.seed('email-teaser', [text]);
    const bodies: unknown[] = [];
    server.on('POST', brandVoicePaths.check, (_req, body, res) => {
      bodies.push(JSON.parse(body));
      const sent = (JSON.parse(body) as { text: string }).text;
      const findings = sent === text ? [banned] : [];
      json(res, 200, { findings, counts: countFindings(findings), score: 90, version: 1 });
    });
    const { user } = renderRoute(`/campaigns/${campaign().id}`);
    const section = await screen.findByRole('region', { name: 'Assets' });
    const card = await within(section).findByRole('article', { name: 'E-mail teaser' });
    await user.click(await within(card).findByRole('button', { name: 'Check' }));
    expect(await within(card).findByRole('button', { name: 'Tanie (Banned term)' })).toBeVisible();
    expect(bodies).toEqual([{ text, target: 'email-teaser' }]);

    await user.click(within(card).getByRole('button', { name: 'Apply all (1)' }));
    await waitFor(() =>
      expect(api.state.saves).toEqual([
        { channel: 'email-teaser', text: 'Przystępne szkolenie dla CFO.', baseVersion: 1 },
      ]),
    );
    expect(await within(card).findByText('Version 2')).toBeVisible();
    await user.click(within(card).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(api.state.saves.at(-1)).toEqual({ channel: 'email-teaser', text, baseVersion: 2 }),
    );
    expect(await within(card).findByText('Version 3')).toBeVisible();
  });

  it('opens with the stored check of the generation the text was made from (a reload): no new check, and Apply keeps the findings', async () => {
    campaigns.state.campaigns = [campaign()];
    const stored = { findings: [banned], counts: countFindings([banned]), score: 72, version: 1 };
    api.seed('email-teaser', [text], 'draft', stored);
    const checks: unknown[] = [];
    server.on('POST', brandVoicePaths.check, (_req, body, res) => {
      checks.push(JSON.parse(body));
      json(res, 200, { findings: [], counts: countFindings([]), score: 100, version: 1 });
    });
    const { user } = renderRoute(`/campaigns/${campaign().id}`);
    const card = await screen.findByRole('article', { name: 'E-mail teaser' });
    expect(await within(card).findByText('Score 72 · 1 finding')).toBeVisible();
    await user.click(within(card).getByRole('button', { name: 'Check' }));
    expect(await within(card).findByRole('button', { name: 'Tanie (Banned term)' })).toBeVisible();
    expect(checks).toEqual([]);

    await user.click(within(card).getByRole('button', { name: 'Apply all (1)' }));
    expect(await within(card).findByText('Version 2')).toBeVisible();
    // The edit has no stored check of its own: the findings after the fix stay as they were.
    expect(within(card).getByText(/The score is the last check’s/)).toBeVisible();
    expect(within(card).queryByText(/^Score 72/)).toBeNull();
    expect(checks).toEqual([]);
  });
});

describe('Generate all and the style check', () => {
  const clean = { findings: [], counts: countFindings([]), score: 100, version: 1 };
  const flagged = {
    findings: [banned, { ...banned, id: 'banned:30:35', start: 30, end: 35, text: 'tanie' }],
    counts: countFindings([banned, banned]),
    score: 68,
    version: 1,
  };

  it("shows each saved asset's score and findings, and takes the marketer to them in the asset's card", async () => {
    campaigns.state.campaigns = [campaign()];
    api.state.generateAll = [
      { channel: 'linkedin-post', text: 'Tanie szkolenie dla CFO. Nowe tanie webinary.', style: flagged },
      { channel: 'email-teaser', text: 'Szkolenie dla CFO.', style: clean },
    ];
    const checks: unknown[] = [];
    server.on('POST', brandVoicePaths.check, (_req, body, res) => {
      checks.push(JSON.parse(body));
      json(res, 200, clean);
    });
    const { user } = renderRoute(`/campaigns/${campaign().id}`);
    const section = await screen.findByRole('region', { name: 'Assets' });
    await user.click(await within(section).findByRole('button', { name: 'Generate all' }));
    await user.click(within(section).getByRole('button', { name: 'Generate 2 assets' }));
    const progress = await within(section).findByRole('list', { name: 'Progress by asset' });
    await within(section).findByText('Done: 2 saved');
    const [post, teaser] = within(progress).getAllByRole('listitem');
    expect(post).toHaveTextContent('Saved as version 1');
    expect(post).toHaveTextContent('Score 68 · 2 findings');
    expect(post).toHaveTextContent('needs work');
    expect(teaser).toHaveTextContent('Score 100 · no findings');

    await user.click(within(post!).getByRole('button', { name: 'See the findings of the LinkedIn post' }));
    const card = within(section).getByRole('article', { name: 'LinkedIn post' });
    const check = within(card).getByRole('generic', { name: 'Brand voice check of the LinkedIn post' });
    await waitFor(() => expect(check).toHaveFocus());
    expect(within(card).getByRole('button', { name: 'Hide check' })).toBeVisible();
    expect(await within(check).findByRole('button', { name: 'Tanie (Banned term)' })).toBeVisible();
    expect(within(check).getByRole('button', { name: 'tanie (Banned term)' })).toBeVisible();
    expect(within(card).getByText('Score 68 · 2 findings')).toBeVisible();
    expect(checks).toEqual([]);
  });
});

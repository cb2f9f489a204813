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
});

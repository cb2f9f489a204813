import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { deltas, final, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

const server = serveApi();

async function openPaidAds() {
  const view = renderRoute('/tools/paid-ads');
  await screen.findByRole('heading', { level: 1, name: 'Paid ads' });
  return {
    ...view,
    content: screen.getByLabelText('Paste the base content'),
    generate: screen.getByRole('button', { name: 'Generate' }),
    output: screen.getByRole('region', { name: 'Check the output' }),
  };
}

describe('Paid ads page', () => {
  it('streams, then shows the analysis and the ad copy apart; Copy to clipboard copies the ad copy', async () => {
    server.reply({
      kind: 'stream',
      events: [
        ...deltas('Analiza: grupa docelowa to dyrektorzy finansowi. Treść reklamy: Sprawdź raport! 🚀'),
        final('Analiza: grupa docelowa to dyrektorzy finansowi.\n\nTreść reklamy: Sprawdź raport! 🚀', {
          analysis: 'Grupa docelowa to **dyrektorzy finansowi**.',
          copy: 'Sprawdź raport! 🚀',
        }),
      ],
    });
    const view = await openPaidAds();
    expect(view.generate).toBeDisabled();
    await view.user.type(view.content, 'Raport CFO 2026');
    await view.user.click(view.generate);

    const analysis = await within(view.output).findByRole('region', { name: 'Analysis' });
    expect(within(analysis).getByText('dyrektorzy finansowi').tagName).toBe('STRONG');
    const copy = within(view.output).getByRole('region', { name: 'Ad copy' });
    expect(copy).toHaveTextContent('Sprawdź raport! 🚀');
    // Only the copy counts toward the 600, in characters as a reader counts them (the emoji once).
    expect(within(view.output).getByText('17 / 600 characters')).toBeVisible();

    await view.user.click(within(view.output).getByRole('button', { name: 'Copy to clipboard' }));
    expect(await navigator.clipboard.readText()).toBe('Sprawdź raport! 🚀');
    expect(server.state.calls[0]).toMatchObject({ name: 'paid-ads', body: { content: 'Raport CFO 2026' } });
  });

  it('says "Error generating paid ads" on a failure and "Error occured, please try again" on an empty result', async () => {
    server.reply(
      { kind: 'error', status: 502, code: 'ai_unavailable' },
      { kind: 'stream', events: [final('')] },
    );
    const view = await openPaidAds();
    await view.user.type(view.content, 'Treść');
    await view.user.click(view.generate);
    expect(await within(view.output).findByRole('alert')).toHaveTextContent('Error generating paid ads');
    await view.user.click(view.generate);
    expect(await within(view.output).findByText('Error occured, please try again')).toBeVisible();
    expect(view.content).toHaveValue('Treść');
  });

  it('Clear fields empties the content', async () => {
    const view = await openPaidAds();
    await view.user.type(view.content, 'Treść');
    await view.user.click(screen.getByRole('button', { name: 'Clear fields' }));
    expect(view.content).toHaveValue('');
    expect(screen.getByRole('link', { name: 'Return to menu' })).toHaveAttribute('href', '/tools');
  });
});

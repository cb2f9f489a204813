import { adminPaths, type OwnAllowanceResponse } from '@gem/contracts/admin-allowances';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { final, json, serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

const server = serveApi();

const resetsAt = '2026-12-01T00:00:00.000Z';

/** Answers GET /api/ai/allowance with each of `answers` in turn (the last one from then on). */
function allowanceAnswers(...answers: OwnAllowanceResponse[]) {
  let asked = 0;
  server.on('GET', adminPaths.allowance, (_req, _body, res) =>
    json(res, 200, answers[Math.min(asked++, answers.length - 1)]),
  );
  return () => asked;
}

async function openTeaser() {
  const view = renderRoute('/tools/teaser-generator');
  await screen.findByRole('heading', { level: 1, name: 'Teaser generator' });
  return view;
}

describe('the remaining allowance on a tool page', () => {
  it('says what is left, and reads it again as a generation ends', async () => {
    const asked = allowanceAnswers(
      { monthlyTokens: 500_000, usedTokens: 487_660, remainingTokens: 12_340, resetsAt },
      { monthlyTokens: 500_000, usedTokens: 500_000, remainingTokens: 0, resetsAt },
    );
    const view = await openTeaser();
    const line = await screen.findByText('12,340 of 500,000 tokens left this month');
    expect(line.closest('p')?.textContent).toContain('Resets on Dec 1, 2026.');

    server.reply({ kind: 'stream', events: [final('Krótki teaser.')] });
    await view.user.type(screen.getByLabelText('Paste the base content'), 'Raport');
    await view.user.click(screen.getByRole('button', { name: 'Generate' }));
    await within(screen.getByRole('region', { name: 'Check the output' })).findByText('Krótki teaser.');
    const spent = await screen.findByText('0 of 500,000 tokens left this month');
    expect(spent.closest('p')?.textContent).toContain(
      'Your monthly AI allowance is used up. Ask your administrator to raise it.',
    );
    expect(asked()).toBe(2);
  });

  it('says nothing when there is no limit', async () => {
    const asked = allowanceAnswers({
      monthlyTokens: null,
      usedTokens: 1_234,
      remainingTokens: null,
      resetsAt,
    });
    await openTeaser();
    await expect.poll(asked).toBe(1);
    expect(screen.queryByText(/tokens left this month/)).toBeNull();
  });
});

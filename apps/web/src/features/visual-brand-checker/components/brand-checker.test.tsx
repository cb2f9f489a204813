import { visualBrandCheckerPaths } from '@gem/contracts/visual-brand-checker';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { createQueryClient } from '@/lib/query-client';
import { json, serveApi } from '@/testing/api-server';

import { BrandChecker } from './brand-checker';

const server = serveApi();

/** Renders the checker once the server's settings name `url` (or no page). */
async function renderWith(url: string | null) {
  server.on('GET', visualBrandCheckerPaths.settings, (_req, _body, res) => json(res, 200, { url }));
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <BrandChecker />
    </QueryClientProvider>,
  );
  await screen.findByText(url ? 'Open in a new tab' : 'The brand checker is not configured');
  return view;
}

describe('BrandChecker', () => {
  it('embeds the configured page in a sandbox that cannot navigate GEM away', async () => {
    await renderWith('https://brand.example.com/check');
    const frame = screen.getByTitle('Visual brand checker');
    expect(frame).toHaveAttribute('src', 'https://brand.example.com/check');
    const sandbox = frame.getAttribute('sandbox') ?? '';
    expect(sandbox).toContain('allow-scripts');
    expect(sandbox).not.toContain('allow-top-navigation');
    expect(screen.getByRole('link', { name: 'Open in a new tab' })).toHaveAttribute(
      'rel',
      'noopener noreferrer',
    );
  });

  it('says when no brand checker is configured, and whom to ask, without naming a setting', async () => {
    await renderWith(null);
    expect(screen.getByRole('heading', { name: 'The brand checker is not configured' })).toBeVisible();
    expect(screen.getByText(/Ask your administrator to connect the brand checker\./)).toBeVisible();
    expect(document.body).not.toHaveTextContent(/GEM_/);
    expect(screen.queryByTitle('Visual brand checker')).toBeNull();
  });
});

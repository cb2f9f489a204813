import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { createQueryClient } from '@/lib/query-client';

import { visualBrandCheckerQueryOptions } from '../api/get-visual-brand-checker';
import { BrandChecker } from './brand-checker';

function renderWith(url: string | null) {
  const client = createQueryClient();
  client.setQueryData(visualBrandCheckerQueryOptions.queryKey, { url });
  return render(
    <QueryClientProvider client={client}>
      <BrandChecker />
    </QueryClientProvider>,
  );
}

describe('BrandChecker', () => {
  it('embeds the configured page in a sandbox that cannot navigate GEM away', () => {
    renderWith('https://brand.example.com/check');
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

  it('says when no brand checker is configured, and how to set one', () => {
    renderWith(null);
    expect(screen.getByRole('heading', { name: 'The brand checker is not configured' })).toBeVisible();
    expect(screen.getByText('GEM_BRAND_CHECKER_URL')).toBeVisible();
    expect(screen.queryByTitle('Visual brand checker')).toBeNull();
  });
});

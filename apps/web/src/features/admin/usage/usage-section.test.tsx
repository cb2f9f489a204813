import { adminPaths } from '@gem/contracts/admin-paths';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { createQueryClient } from '@/lib/query-client';
import { serveApi } from '@/testing/api-server';

import { readUsageSearch, writeUsageSearch } from './search-params';
import { UsageSection } from './usage-section';

const api = serveApi();

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '/admin/usage', element: <UsageSection /> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

/** The questions the page asked the usage route, as query strings. */
const asked = () =>
  api.state.requests.filter((r) => r.url.pathname === adminPaths.usage).map((r) => r.url.searchParams);

describe('the usage page’s filters in its address', () => {
  it('asks for what the address says, and shows it in the fields', async () => {
    renderAt('/admin/usage?from=2026-01-05&to=2026-02-01&by=week&tool=article');
    await waitFor(() => expect(asked().length).toBeGreaterThan(0));
    const question = asked().at(-1)!;
    expect(Object.fromEntries(question)).toEqual({
      from: '2026-01-05',
      to: '2026-02-01',
      by: 'week',
      tool: 'article',
    });
    expect(screen.getByLabelText('Range')).toHaveValue('custom');
    expect(screen.getByLabelText('From (UTC)')).toHaveValue('2026-01-05');
    expect(screen.getByLabelText('Per')).toHaveValue('week');
    expect(screen.getByLabelText('Tool')).toHaveValue('article');
  });

  it('writes each change to the address, defaults left out', async () => {
    const { router, user } = renderAt('/admin/usage');
    await user.selectOptions(screen.getByLabelText('Range'), 'Last 7 days');
    expect(router.state.location.search).toBe('?range=7');
    await user.selectOptions(screen.getByLabelText('Per'), 'week');
    expect(router.state.location.search).toBe('?range=7&by=week');
    await user.selectOptions(screen.getByLabelText('Range'), 'Last 30 days');
    await user.selectOptions(screen.getByLabelText('Per'), 'day');
    expect(router.state.location.search).toBe('');
  });

  it('reads a preset relative to today, and ignores what it does not know', () => {
    const now = Date.UTC(2026, 10, 28, 12);
    expect(readUsageSearch(new URLSearchParams('range=7'), now)).toEqual({
      preset: '7',
      range: { from: '2026-11-22', to: '2026-11-28' },
      by: 'day',
      userId: '',
      tool: '',
    });
    expect(readUsageSearch(new URLSearchParams('range=9999&by=year'), now)).toMatchObject({
      preset: '30',
      by: 'day',
    });
    const custom = readUsageSearch(new URLSearchParams('to=2026-03-01&user=u1'), now);
    expect(custom).toMatchObject({ preset: 'custom', range: { from: '', to: '2026-03-01' }, userId: 'u1' });
    expect(writeUsageSearch(custom).toString()).toBe('from=&to=2026-03-01&user=u1');
  });
});

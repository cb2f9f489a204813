import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderRoute } from '@/testing/render-route';

import { ToolPageIncoming } from './tool-page-incoming';

// Every tool has its page now; the placeholder stays for the next one, shown here on its own.
const routeList = [
  {
    path: '/tools/campaign-audience-builder',
    element: <ToolPageIncoming slug="campaign-audience-builder" />,
  },
];

describe('page incoming placeholder', () => {
  it('shows Tools and the tool name on a tool page, with a way back to the tools', async () => {
    renderRoute('/tools/campaign-audience-builder', { routeList });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page incoming' })).toBeVisible();
    const trail = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(trail).getByRole('link', { name: 'Tools' })).toHaveAttribute('href', '/tools');
    expect(within(trail).getByText('Campaign audience builder')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText(/is on its way/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to all tools' })).toHaveAttribute('href', '/tools');
    expect(document.title).toBe('Campaign audience builder · GEM');
  });
});

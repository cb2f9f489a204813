import { webRoutePatterns } from '@gem/contracts/web-routes';
import { screen, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';

import { renderRoute } from '@/testing/render-route';

import { routes } from './router';

function pathsOf(list: RouteObject[]): string[] {
  return list.flatMap((route) => [
    ...(route.path ? [route.path] : []),
    ...(route.children ? pathsOf(route.children) : []),
  ]);
}

describe('router', () => {
  it('has exactly the pages in webRoutePatterns, plus a catch-all last', () => {
    const paths = pathsOf(routes);
    expect(paths.at(-1)).toBe('*');
    expect(paths.slice(0, -1).sort()).toEqual([...webRoutePatterns].sort());
  });

  it('puts every page behind the access gate except the public ones (spec §4)', () => {
    const root = routes[0]?.children ?? [];
    const publicPaths = root.filter((r) => r.path && r.path !== '*').map((r) => r.path);
    expect(publicPaths.sort()).toEqual(['/login', '/logout', '/register', '/tools/qr-code-generator']);
  });

  it('shows the not-found page for an unknown path', async () => {
    renderRoute('/nope');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    expect(screen.getByText('/nope')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Page not found · GEM');
  });

  it('treats an unknown nested path under a known section as not found', async () => {
    renderRoute('/tools/no-such-tool');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('shows a hostile path as text, never as markup', async () => {
    const { container } = renderRoute('/%3Cimg%20src=x%20onerror=alert(1)%3E');
    await screen.findByRole('heading', { name: 'Page not found' });
    expect(screen.getByText('/<img src=x onerror=alert(1)>')).toBeVisible();
    expect(container.querySelector('img[src="x"]')).toBeNull();
  });

  it('keeps the header, navigation and footer around every page', async () => {
    renderRoute('/tools/campaign-audience-builder');
    await screen.findByRole('heading', { level: 1, name: 'Campaign audience builder' });
    // The site's header; jsdom also counts the page heading's <header> inside <main> as a banner.
    expect(screen.getAllByRole('banner')[0]).toHaveTextContent('GEM');
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Tools' })).toHaveAttribute('aria-current', 'page');
  });
});

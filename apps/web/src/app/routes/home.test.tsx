import { marketAreas, tools } from '@gem/contracts/catalogue';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { RootLayout } from '@/app/layout/root-layout';
import { renderRoute } from '@/testing/render-route';

import { RouteErrorContent } from './route-error';

describe('home page', () => {
  it('greets the user with the spec heading and sets the title', async () => {
    renderRoute('/');
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Welcome to Generative and enhanced marketing',
      }),
    ).toBeVisible();
    expect(document.title).toBe('Home · GEM');
  });

  it('teases the first 4 market areas, each linking to its feed', async () => {
    renderRoute('/');
    const list = await screen.findByRole('list', { name: 'Market Research' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    const expected = marketAreas.slice(0, 4);
    items.forEach((item, index) => {
      const area = expected[index]!;
      expect(within(item).getByRole('link', { name: area.name })).toHaveAttribute(
        'href',
        `/market-research/${area.slug}`,
      );
      expect(within(item).getByRole('img')).toHaveAttribute('src', area.photo);
    });
  });

  it('teases the first 4 tools, each linking to its page', async () => {
    renderRoute('/');
    const list = await screen.findByRole('list', { name: 'Tools' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(
      tools.slice(0, 4).map((tool) => `/tools/${tool.slug}`),
    );
  });

  it('has a View more link to each full list', async () => {
    renderRoute('/');
    const viewMore = await screen.findAllByRole('link', { name: /^View more/ });
    expect(viewMore.map((link) => link.getAttribute('href'))).toEqual(['/market-research', '/tools']);
  });

  it('shows its own error page, inside the layout, when the page crashes', async () => {
    // React and the router report the caught error on the console; here that is expected.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Crash(): never {
      throw new Error('boom');
    }
    renderRoute('/', {
      routeList: [
        {
          element: <RootLayout />,
          children: [{ path: '/', element: <Crash />, errorElement: <RouteErrorContent /> }],
        },
      ],
    });

    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalled();
    consoleError.mockRestore();
  });
});

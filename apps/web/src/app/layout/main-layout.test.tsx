import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { MainLayout } from './main-layout';

function renderLayout(isAuthenticated: boolean, path = '/', isAdmin = false) {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <MainLayout isAuthenticated={isAuthenticated} isAdmin={isAdmin}>
            <h1>Page body</h1>
          </MainLayout>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return { user: userEvent.setup() };
}

const linkNames = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole('link')
    .map((a) => a.textContent);

describe('main layout', () => {
  it('names the brand link by the words it shows, so speech input can reach it (WCAG 2.5.3)', () => {
    renderLayout(true);
    const brand = within(screen.getByRole('banner')).getByRole('link', {
      name: 'GEM Generative and Enhanced Marketing',
    });
    expect(brand).toHaveAttribute('href', '/');
    expect(brand).not.toHaveAttribute('aria-label');
    expect(brand.textContent).toBe('GEM Generative and Enhanced Marketing');
  });

  it('shows the five main links and hides Logout when signed out', () => {
    renderLayout(false);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(linkNames(nav)).toEqual(['Home', 'Market Research', 'Tools', 'Campaigns', 'How to use']);
    expect(screen.queryByRole('link', { name: 'Logout' })).toBeNull();
  });

  it('shows Logout, linking to /logout, when signed in', () => {
    renderLayout(true);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(linkNames(nav)).toEqual(['Home', 'Market Research', 'Tools', 'Campaigns', 'How to use', 'Logout']);
    expect(within(nav).getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/logout');
  });

  it('shows Admin, linking to /admin, to administrators only', () => {
    renderLayout(true, '/', true);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(linkNames(nav)).toEqual([
      'Home',
      'Market Research',
      'Tools',
      'Campaigns',
      'How to use',
      'Admin',
      'Logout',
    ]);
    expect(within(nav).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });

  it('marks only the link of the current section as current', () => {
    renderLayout(false, '/market-research/esg');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Market Research']);
  });

  it('offers Skip to content as the first tab stop, and it moves focus to the page', async () => {
    const { user } = renderLayout(false);
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });
});

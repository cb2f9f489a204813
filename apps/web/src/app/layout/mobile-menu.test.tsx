import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderRoute } from '@/testing/render-route';

async function openMenu() {
  const rendered = renderRoute('/');
  const button = await screen.findByRole('button', { name: 'Menu' });
  await rendered.user.click(button);
  return { ...rendered, button, dialog: screen.getByRole('dialog', { name: 'Menu' }) };
}

describe('mobile menu', () => {
  it('opens a full-screen menu with the same links, focus inside and page scroll locked', async () => {
    const { button, dialog } = await openMenu();
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    const links = within(within(dialog).getByRole('navigation')).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Home',
      'Market Research',
      'Tools',
      'Campaigns',
      'How to use',
      'Logout',
    ]);
    expect(document.body).toHaveAttribute('data-mobile-menu-open');
  });

  it('closes on Escape and gives focus back to the menu button', async () => {
    const { user, button } = await openMenu();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(document.body).not.toHaveAttribute('data-mobile-menu-open');
  });

  it('closes from its close control', async () => {
    const { user, button } = await openMenu();
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('navigates and closes when a link is chosen', async () => {
    const { user, dialog, router } = await openMenu();
    await user.click(within(dialog).getByRole('link', { name: 'Tools' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/tools');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps Tab inside the menu while it is open', async () => {
    const { user, dialog } = await openMenu();
    for (let i = 0; i < 12; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
  });
});

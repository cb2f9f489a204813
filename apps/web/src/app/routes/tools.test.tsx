import { tools } from '@gem/contracts/catalogue';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { serveApi } from '@/testing/api-server';
import { renderRoute } from '@/testing/render-route';

// The Paid ads page this opens asks the API for the AI status and its history.
serveApi();

describe('tools menu', () => {
  it("lists every tool (the spec's ten and Check text) in catalogue order with name, photo, summary and link", async () => {
    renderRoute('/tools');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
    // Pages load on demand: the title is set once the page's effect has run.
    await waitFor(() => expect(document.title).toBe('Tools · GEM'));

    const items = within(screen.getByRole('list', { name: 'All tools' })).getAllByRole('listitem');
    expect(items).toHaveLength(tools.length);
    expect(tools).toHaveLength(11);
    items.forEach((item, index) => {
      const tool = tools[index]!;
      expect(within(item).getByRole('link', { name: tool.name })).toHaveAttribute(
        'href',
        `/tools/${tool.slug}`,
      );
      const img = within(item).getByRole('img');
      expect(img).toHaveAttribute('src', tool.photo);
      expect(img).toHaveAccessibleName(`${tool.name} illustration`);
      expect(within(item).getByText(tool.summary)).toBeVisible();
    });
  });

  it('marks only the QR code generator as free to use without signing in', async () => {
    renderRoute('/tools');
    const list = await screen.findByRole('list', { name: 'All tools' });
    const freeBadges = within(list).getAllByText(/no sign-in needed/);
    expect(freeBadges).toHaveLength(1);
    const card = freeBadges[0]!.closest('li')!;
    expect(within(card).getByRole('link')).toHaveTextContent('QR code generator');
  });

  it('opens a tool when its card link is followed', async () => {
    const { user } = renderRoute('/tools');
    await user.click(await screen.findByRole('link', { name: 'Paid ads' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Paid ads' })).toBeVisible();
    // Pages load on demand: the title is set once the page's effect has run.
    await waitFor(() => expect(document.title).toBe('Paid ads · GEM'));
  });
});

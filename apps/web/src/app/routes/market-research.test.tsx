import { marketAreas } from '@gem/contracts/catalogue';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderRoute } from '@/testing/render-route';

describe('market research list', () => {
  it('lists all eleven areas, each linking to its feed', async () => {
    renderRoute('/market-research');
    expect(await screen.findByRole('heading', { level: 1, name: 'Market Research' })).toBeVisible();
    expect(document.title).toBe('Market Research · GEM');

    const items = within(screen.getByRole('list', { name: 'All market areas' })).getAllByRole('listitem');
    expect(items).toHaveLength(11);
    items.forEach((item, index) => {
      const area = marketAreas[index]!;
      expect(within(item).getByRole('link', { name: area.name })).toHaveAttribute(
        'href',
        `/market-research/${area.slug}`,
      );
    });
  });

  it('shows how many clients an area with sub-areas covers, and no count on the others', async () => {
    renderRoute('/market-research');
    const list = await screen.findByRole('list', { name: 'All market areas' });
    const counts = within(list).getAllByText(/^\d+ clients?$/);
    expect(counts.map((count) => count.textContent)).toEqual(['13 clients']);
    expect(counts[0]!.closest('li')).toHaveTextContent('Priority clients');
  });
});

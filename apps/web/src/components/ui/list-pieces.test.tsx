import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { Card, CardList } from './card';
import { ListPanel, ListState } from './list-panel';

describe('the card and list panel pieces', () => {
  it('renders a clickable card as a button that does not submit a form, with its attributes', async () => {
    const onClick = vi.fn();
    render(
      <form onSubmit={() => expect.fail('a card submitted the form')}>
        <Card as="button" size="compact" selected aria-pressed onClick={onClick}>
          Campaign
        </Card>
      </form>,
    );
    const card = screen.getByRole('button', { name: 'Campaign', pressed: true });
    expect(card).toHaveAttribute('type', 'button');
    await userEvent.click(card);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('renders a card as the element asked for, a div unless told', () => {
    const { container } = render(
      <>
        <Card as="article" aria-label="Brief" className="mine">
          inside
        </Card>
        <Card>plain</Card>
      </>,
    );
    const article = screen.getByRole('article', { name: 'Brief' });
    expect(article.className).toContain('mine');
    expect(article).not.toHaveAttribute('type');
    expect(container.lastElementChild?.tagName).toBe('DIV');
  });

  it('renders a card list as a named list, ordered when asked, busy while refreshed', () => {
    render(
      <>
        <CardList label="Sessions" busy>
          <li>one</li>
        </CardList>
        <CardList label="Outputs" ordered layout="stack" scroll>
          <li>two</li>
        </CardList>
      </>,
    );
    expect(screen.getByRole('list', { name: 'Sessions' }).tagName).toBe('UL');
    expect(screen.getByRole('list', { name: 'Sessions' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('list', { name: 'Outputs' }).tagName).toBe('OL');
    expect(screen.getByRole('list', { name: 'Outputs' })).not.toHaveAttribute('aria-busy');
  });

  it('renders a list panel as a region named by its title, with its description and state', () => {
    render(
      <ListPanel title="Recent campaigns" titleAside={<span>Sample data</span>} description="Choose one.">
        <ListState role="status">
          <p>Loading campaigns…</p>
        </ListState>
      </ListPanel>,
    );
    const panel = screen.getByRole('region', { name: 'Recent campaigns' });
    expect(screen.getByRole('heading', { level: 2, name: 'Recent campaigns' })).toBeVisible();
    expect(panel).toHaveTextContent('Sample data');
    expect(panel).toHaveTextContent('Choose one.');
    expect(screen.getByRole('status')).toHaveTextContent('Loading campaigns…');
  });
});

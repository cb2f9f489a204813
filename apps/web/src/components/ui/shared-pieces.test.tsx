import { render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';

import { EmptyState } from './empty-state';
import { Eyebrow } from './eyebrow';
import { SelectInput, TextArea, TextInput } from './fields';
import { InlineList } from './inline-list';
import { Notice } from './notice';
import { Panel } from './panel';
import { Split } from './split';

describe('the shared layout pieces', () => {
  it('renders a panel as the element asked for, with its attributes', () => {
    render(
      <Panel as="section" aria-label="Brief" className="extra">
        inside
      </Panel>,
    );
    const panel = screen.getByRole('region', { name: 'Brief' });
    expect(panel.tagName).toBe('SECTION');
    expect(panel.className).toContain('extra');
    expect(panel).toHaveTextContent('inside');
  });

  it('renders a panel as a div unless told', () => {
    const { container } = render(<Panel>text</Panel>);
    expect(container.firstElementChild?.tagName).toBe('DIV');
  });

  it('keeps the split columns in order and adds the page class', () => {
    const { container } = render(
      <Split className="ratio">
        <p>first</p>
        <p>second</p>
      </Split>,
    );
    const split = container.firstElementChild as HTMLElement;
    expect(split.className).toContain('ratio');
    expect([...split.children].map((c) => c.textContent)).toEqual(['first', 'second']);
  });

  it('gives an empty state and a notice the role they are told, a notice "note" by default', () => {
    render(
      <>
        <EmptyState role="alert" tone="problem">
          <p>failed</p>
        </EmptyState>
        <Notice>sample</Notice>
        <Notice tone="neutral" role="status">
          stale
        </Notice>
      </>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('failed');
    expect(screen.getByRole('note')).toHaveTextContent('sample');
    expect(screen.getByRole('status')).toHaveTextContent('stale');
  });

  it('renders an inline list as a list with its label', () => {
    render(
      <InlineList aria-label="Chips" spacing="loose">
        <li>one</li>
        <li>two</li>
      </InlineList>,
    );
    expect(screen.getByRole('list', { name: 'Chips' }).querySelectorAll('li')).toHaveLength(2);
  });

  it('renders an eyebrow as a paragraph', () => {
    render(<Eyebrow>Tools</Eyebrow>);
    expect(screen.getByText('Tools').tagName).toBe('P');
  });
});

describe('the bare field controls', () => {
  it('hands the ref and the attributes to the text box, the text area and the select', () => {
    const input = createRef<HTMLInputElement>();
    const area = createRef<HTMLTextAreaElement>();
    const select = createRef<HTMLSelectElement>();
    render(
      <>
        <TextInput ref={input} aria-label="Query" density="compact" className="mine" defaultValue="x" />
        <TextArea ref={area} aria-label="Message" rows={2} />
        <SelectInput ref={select} aria-label="Unit" defaultValue="w">
          <option value="d">Days</option>
          <option value="w">Weeks</option>
        </SelectInput>
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Query' })).toBe(input.current);
    expect(input.current?.className).toContain('mine');
    expect(screen.getByRole('textbox', { name: 'Message' })).toBe(area.current);
    expect(screen.getByRole('combobox', { name: 'Unit' })).toBe(select.current);
    expect(select.current?.value).toBe('w');
  });
});

import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { forbiddenSelectors, xssPayloads } from '@/testing/xss-payloads';

import { FormattedOutput, safeUrl } from './formatted-output';

declare global {
  interface Window {
    __gemXss?: number;
  }
}

afterEach(() => {
  delete window.__gemXss;
});

/** Everything in the rendered output that could run script or navigate somewhere unsafe. */
function dangers(root: HTMLElement): string[] {
  const found: string[] = [];
  for (const selector of forbiddenSelectors) {
    if (root.querySelector(selector)) found.push(`<${selector}>`);
  }
  for (const element of root.querySelectorAll('*')) {
    for (const attribute of element.attributes) {
      if (attribute.name.startsWith('on')) found.push(`${element.tagName} ${attribute.name}`);
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc'].includes(attribute.name)) {
        const scheme = attribute.value.trim().toLowerCase().split(':')[0];
        if (!['http', 'https', 'mailto'].includes(scheme ?? '')) {
          found.push(`${element.tagName} ${attribute.name}=${attribute.value}`);
        }
      }
    }
  }
  return found;
}

describe('FormattedOutput', () => {
  it('renders markdown as formatted text', () => {
    render(<FormattedOutput text={'# Tytuł\n\nTo jest **ważne** i *ciekawe*.\n\n- jeden\n- dwa'} />);
    // The page has its h1 and the output section its h2: output headings start at h3.
    expect(screen.getByRole('heading', { level: 3, name: 'Tytuł' })).toBeVisible();
    expect(screen.getByText('ważne').tagName).toBe('STRONG');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['jeden', 'dwa']);
  });

  it('keeps the line breaks the model wrote, as in an e-mail sign-off', () => {
    const { container } = render(
      <FormattedOutput text={'Dzień dobry,\nzapraszamy.\n\nPozdrawiamy\nZespół GEM'} />,
    );
    const paragraphs = [...container.querySelectorAll('p')];
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs.map((p) => p.querySelectorAll('br').length)).toEqual([1, 1]);
  });

  it('opens http, https and mailto links in a new tab without an opener or referrer', () => {
    render(
      <FormattedOutput text="[site](https://example.com/a) [plain](http://example.org) [mail](mailto:team@example.com)" />,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/a',
      'http://example.org/',
      'mailto:team@example.com',
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  it('keeps the words of a link with any other URL, but not the link', () => {
    render(<FormattedOutput text="[relative](/admin) [ftp](ftp://example.com/f)" />);
    expect(screen.queryAllByRole('link')).toEqual([]);
    expect(screen.getByText('relative')).toBeVisible();
    expect(screen.getByText('ftp')).toBeVisible();
  });

  it(`renders ${xssPayloads.length} XSS payloads without running or keeping any of them`, () => {
    expect(xssPayloads.length).toBeGreaterThanOrEqual(30);
    // One at a time, so one payload's markup cannot hide another's, and all together.
    for (const payload of [...xssPayloads, xssPayloads.join('\n\n')]) {
      const { container, unmount } = render(<FormattedOutput text={payload} />);
      expect(dangers(container), payload).toEqual([]);
      unmount();
    }
    expect(window.__gemXss).toBeUndefined();
  });

  it('shows raw HTML as the text it is', () => {
    render(<FormattedOutput text={'<script>window.__gemXss=1</script>'} />);
    expect(screen.getByText('<script>window.__gemXss=1</script>')).toBeVisible();
  });
});

describe('safeUrl', () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['  HTTPS://Example.com/x ', 'https://example.com/x'],
    ['mailto:a@example.com', 'mailto:a@example.com'],
    ['javascript:alert(1)', null],
    ['java\tscript:alert(1)', null],
    ['\u0001javascript:alert(1)', null],
    ['data:text/html,<script>', null],
    ['/relative', null],
    ['//example.com', null],
  ])('%j → %j', (url, expected) => {
    expect(safeUrl(url, 'href', { type: 'element', tagName: 'a', properties: {}, children: [] })).toBe(
      expected,
    );
  });
});

describe('FormattedOutput highlights', () => {
  const marked = (text: string, highlights: { id: string; start: number; end: number }[]) => {
    const { container } = render(
      <FormattedOutput
        text={text}
        highlights={highlights}
        renderHighlight={(id, children) => <mark data-id={id}>{children}</mark>}
      />,
    );
    return [...container.querySelectorAll('mark')].map((m) => [m.dataset['id'], m.textContent]);
  };
  const span = (text: string, words: string, id = words) => {
    const start = text.indexOf(words);
    return { id, start, end: start + words.length };
  };

  it('marks source spans inside the formatting: bold, headings, list items, across line breaks', () => {
    const text = '## Tanie usługi\n\nNasze **tanie** oferty.\nDruga linia z tanim.\n\n- punkt taniej';
    expect(
      marked(text, [span(text, 'Tanie'), span(text, 'tanie'), span(text, 'tanim'), span(text, 'taniej')]),
    ).toEqual([
      ['Tanie', 'Tanie'],
      ['tanie', 'tanie'],
      ['tanim', 'tanim'],
      ['taniej', 'taniej'],
    ]);
    expect(document.querySelector('h3 mark')?.textContent).toBe('Tanie');
    expect(document.querySelector('strong mark')?.textContent).toBe('tanie');
    expect(document.querySelector('li mark')?.textContent).toBe('taniej');
  });

  it('marks a span that crosses formatting in its pieces, and leaves a span of escaped text unmarked', () => {
    const text = 'Bardzo **tanie** usługi &amp; tanie\\* oferty';
    expect(marked(text, [span(text, 'Bardzo **tanie**', 'a'), span(text, 'tanie\\*', 'b')])).toEqual([
      ['a', 'Bardzo '],
      ['a', 'tanie'],
    ]);
    // The words stay, whatever could not be marked.
    expect(document.body.textContent).toContain('usługi & tanie* oferty');
  });

  it('shows the text as it is without highlights', () => {
    expect(marked('Nasze **tanie** oferty.', [])).toEqual([]);
  });
});

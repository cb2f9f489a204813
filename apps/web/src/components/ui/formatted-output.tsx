import { useMemo, type ReactNode } from 'react';
import Markdown, { type Components, type UrlTransform } from 'react-markdown';
import remarkBreaks from 'remark-breaks';

import styles from './formatted-output.module.css';

const allowedProtocols = new Set(['http:', 'https:', 'mailto:']);

/**
 * Links in model output may only be http, https or mailto. The URL is parsed the way the
 * browser will parse it (tabs and newlines dropped, entities already decoded), and what was
 * checked is what is rendered. Relative links have no meaning in model output: dropped.
 */
export const safeUrl: UrlTransform = (url) => {
  try {
    const parsed = new URL(url);
    return allowedProtocols.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
};

// The page already has its h1 and the output section its h2: headings in the output start at h3.
const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  // Images would load from anywhere the model names (and the CSP forbids it): show the alt text.
  img: ({ alt }) => (alt ? <span className={styles.imageAlt}>{alt}</span> : null),
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h3>{children}</h3>,
  h3: ({ children }) => <h4>{children}</h4>,
  h4: ({ children }) => <h5>{children}</h5>,
  h5: ({ children }) => <h5>{children}</h5>,
  h6: ({ children }) => <h5>{children}</h5>,
};

// A line break the model wrote stays a line break (an e-mail teaser, a sign-off), as people expect.
const remarkPlugins = [remarkBreaks];

/** A span of the source text to mark in the formatted output (a style finding). */
export type TextHighlight = { id: string; start: number; end: number };

type MarkdownNode = {
  type: string;
  value?: string;
  children?: MarkdownNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
  data?: { hName: string; hProperties: Record<string, string> };
};

/**
 * A remark plugin that wraps each highlight's words in a `mark` (data-highlight: its id). It runs
 * before remark-breaks, on the parsed text nodes, which still know where they are in the source;
 * a node whose words differ from its source (an entity, an escape) is left unmarked.
 */
function remarkHighlights(source: string, highlights: readonly TextHighlight[]) {
  const spans = highlights.filter((h) => h.end > h.start).sort((a, b) => a.start - b.start);
  const split = (node: MarkdownNode): MarkdownNode[] => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined || source.slice(start, end) !== node.value) return [node];
    const parts: MarkdownNode[] = [];
    let at = start;
    for (const span of spans) {
      const from = Math.max(span.start, at);
      const to = Math.min(span.end, end);
      if (from >= to) continue;
      if (from > at) parts.push({ type: 'text', value: source.slice(at, from) });
      parts.push({
        type: 'highlight',
        data: { hName: 'mark', hProperties: { dataHighlight: span.id } },
        children: [{ type: 'text', value: source.slice(from, to) }],
      });
      at = to;
    }
    if (parts.length === 0) return [node];
    if (at < end) parts.push({ type: 'text', value: source.slice(at, end) });
    return parts;
  };
  const walk = (node: MarkdownNode) => {
    if (!node.children) return;
    node.children = node.children.flatMap((child) => {
      if (child.type === 'text') return split(child);
      walk(child);
      return [child];
    });
  };
  return () => (tree: MarkdownNode) => walk(tree);
}

type FormattedOutputProps = {
  text: string;
  className?: string;
  /** Spans of `text` to mark, each drawn by `renderHighlight` (the style check's findings). */
  highlights?: readonly TextHighlight[];
  renderHighlight?: (id: string, children: ReactNode) => ReactNode;
};

/**
 * Model output as formatted text: markdown through react-markdown, with raw HTML shown as
 * plain text (never parsed), safe links only, opened in a new tab without an opener.
 */
export function FormattedOutput({ text, className, highlights, renderHighlight }: FormattedOutputProps) {
  const marking = highlights && highlights.length > 0 && renderHighlight;
  const plugins = useMemo(
    () => (marking ? [remarkHighlights(text, highlights), remarkBreaks] : remarkPlugins),
    [marking, text, highlights],
  );
  const withMarks = useMemo<Components>(
    () =>
      marking
        ? {
            ...components,
            mark: ({ children, ...props }) =>
              renderHighlight(String((props as Record<string, unknown>)['data-highlight']), children),
          }
        : components,
    [marking, renderHighlight],
  );
  return (
    <div className={[styles.prose, className].filter(Boolean).join(' ')}>
      <Markdown urlTransform={safeUrl} components={withMarks} remarkPlugins={plugins}>
        {text}
      </Markdown>
    </div>
  );
}

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

/**
 * Model output as formatted text: markdown through react-markdown, with raw HTML shown as
 * plain text (never parsed), safe links only, opened in a new tab without an opener.
 */
export function FormattedOutput({ text, className }: { text: string; className?: string }) {
  return (
    <div className={[styles.prose, className].filter(Boolean).join(' ')}>
      <Markdown urlTransform={safeUrl} components={components} remarkPlugins={remarkPlugins}>
        {text}
      </Markdown>
    </div>
  );
}

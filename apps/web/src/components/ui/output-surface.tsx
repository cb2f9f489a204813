import type { ComponentProps, ReactNode, Ref } from 'react';

import styles from './output-surface.module.css';

type OutputSurfaceProps = {
  /** The element: a section unless the result is a whole of its own (an article). */
  as?: 'section' | 'article';
  /** The heading in the surface's top row; the surface is labelled by it. */
  heading?: ReactNode;
  /** The heading's id (for aria-labelledby); with `heading`, required. */
  headingId?: string;
  headingRef?: Ref<HTMLHeadingElement>;
  /** Focusable by script (-1), to land on the result. */
  headingTabIndex?: number;
  /** Beside the heading, at the row's end: a badge, a status. */
  headingAside?: ReactNode;
  className?: string;
  children: ReactNode;
} & Omit<ComponentProps<'section'>, 'className' | 'children'>;

/**
 * Where a tool's result shows: a raised white box with the brand colour on its top edge, its
 * heading row first. The AI tools' OutputPanel, the converter's preview, the QR code's preview and
 * the audience builder's results all stand in one.
 */
export function OutputSurface({
  as: Element = 'section',
  heading,
  headingId,
  headingRef,
  headingTabIndex,
  headingAside,
  className,
  children,
  ...props
}: OutputSurfaceProps) {
  return (
    <Element
      className={className ? `${styles.panel} ${className}` : styles.panel}
      aria-labelledby={heading ? headingId : undefined}
      {...props}
    >
      {heading ? (
        <div className={styles.header}>
          <h2 id={headingId} className={styles.title} ref={headingRef} tabIndex={headingTabIndex}>
            {heading}
          </h2>
          {headingAside}
        </div>
      ) : null}
      {children}
    </Element>
  );
}

type OutputPlaceholderProps = {
  /** A div, or a paragraph when it holds a line of text only. */
  as?: 'div' | 'p';
  children: ReactNode;
} & Omit<ComponentProps<'div'>, 'children' | 'className'>;

/** What stands in the surface before there is a result: a dashed box, its text centred. */
export function OutputPlaceholder({ as: Element = 'div', children, ...props }: OutputPlaceholderProps) {
  return (
    <Element className={styles.placeholder} {...props}>
      {children}
    </Element>
  );
}

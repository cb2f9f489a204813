import type { ComponentProps, ElementType, ReactNode } from 'react';

import styles from './panel.module.css';

type PanelProps<T extends ElementType> = {
  /** The element: a div unless it is a section, an article, an aside or a form. */
  as?: T;
  /** 'flat' without the shadow (a box inside a busier page). */
  elevation?: 'raised' | 'flat';
  /** A brand edge on the left, for a box that asks for attention. */
  accent?: boolean;
  /** The box's padding and layout. */
  className?: string;
  children: ReactNode;
} & Omit<ComponentProps<T>, 'as' | 'className' | 'children'>;

/** A white box with a thin border and rounded corners: a panel, a card. */
export function Panel<T extends ElementType = 'div'>({
  as,
  elevation = 'raised',
  accent = false,
  className,
  children,
  ...props
}: PanelProps<T>) {
  const Element: ElementType = as ?? 'div';
  const classes = [
    styles.panel,
    elevation === 'flat' ? styles.flat : null,
    accent ? styles.accent : null,
    className,
  ];
  return (
    <Element className={classes.filter(Boolean).join(' ')} {...props}>
      {children}
    </Element>
  );
}

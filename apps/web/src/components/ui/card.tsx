import type { ComponentProps, ElementType, ReactNode } from 'react';

import styles from './card.module.css';
import { Panel } from './panel';

type CardOwnProps = {
  /**
   * 'regular' for a card standing on its own in a grid (a brief, a session); 'compact' for one
   * item of a list in a panel (an earlier output, a campaign to choose).
   */
  size?: 'regular' | 'compact';
  /**
   * The card that is chosen or shown now: a brand border and edge. The caller tells screen readers
   * too (aria-current or aria-pressed), as it knows which.
   */
  selected?: boolean;
  /** The card's own layout inside (a corner mark); its frame, padding and states are here. */
  className?: string;
  children: ReactNode;
};

/** A button for a card chosen by a click; an article for one with actions of its own; else a div. */
type CardProps = CardOwnProps &
  (
    | ({ as: 'button' } & Omit<ComponentProps<'button'>, keyof CardOwnProps>)
    | ({ as: 'article' } & Omit<ComponentProps<'article'>, keyof CardOwnProps>)
    | ({ as?: 'div' } & Omit<ComponentProps<'div'>, keyof CardOwnProps>)
  );

/**
 * One item of a list or a grid: a Panel's white frame, padded, its content stacked. As a button
 * it is clickable: a pointer, and a lighter brand border and a shadow under the mouse.
 */
export function Card({ size = 'regular', selected = false, className, children, ...props }: CardProps) {
  const { as = 'div', ...attributes } = props;
  const clickable = as === 'button';
  const classes = [
    styles.card,
    size === 'compact' ? styles.compact : null,
    clickable ? styles.clickable : null,
    selected ? styles.selected : null,
    className,
  ];
  return (
    // The element's own attributes are checked against it in CardProps.
    <Panel<ElementType>
      as={as}
      type={clickable ? 'button' : undefined}
      elevation={size === 'compact' ? 'flat' : 'raised'}
      className={classes.filter(Boolean).join(' ')}
      {...attributes}
    >
      {children}
    </Panel>
  );
}

type CardListProps = {
  /** 'grid': as many columns as fit; 'stack': one card under another. */
  layout?: 'grid' | 'stack';
  /** A stack taller than 24rem scrolls inside (a picker beside a form). */
  scroll?: boolean;
  /** An ordered list, when the order says something (newest first). */
  ordered?: boolean;
  /** Names the list for screen readers. */
  label?: string;
  /** The list is being refreshed (a search in flight). */
  busy?: boolean;
  /** Each child should be an <li> holding a Card. */
  children: ReactNode;
};

/** A list of cards, in a grid or a stack. */
export function CardList({
  layout = 'grid',
  scroll = false,
  ordered = false,
  label,
  busy = false,
  children,
}: CardListProps) {
  const List = ordered ? 'ol' : 'ul';
  const classes = [styles.list, styles[layout], scroll ? styles.scroll : null];
  return (
    <List className={classes.filter(Boolean).join(' ')} aria-label={label} aria-busy={busy || undefined}>
      {children}
    </List>
  );
}

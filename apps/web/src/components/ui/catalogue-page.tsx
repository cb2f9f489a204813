import type { ReactNode } from 'react';

import { CardGrid } from './card-grid';
import styles from './catalogue-page.module.css';
import { Container } from './container';
import { PageHeading } from './page-heading';

type CataloguePageProps = {
  eyebrow: string;
  title: string;
  description: string;
  /** Beside the heading, in a box of its own: a word about the whole list. */
  note?: ReactNode;
  /** Above the grid: a search and its filters, or a word about a related page. */
  toolbar?: ReactNode;
  /** Names the grid for screen readers. */
  listLabel: string;
  /** Stands in the grid's place when there are no cards to show: loading, nothing yet, failed. */
  listState?: ReactNode;
  /** The cards, each in an <li>. */
  children?: ReactNode;
};

/**
 * A page that lists a catalogue as a grid of cards under a white intro band (the tools, the market
 * areas, the campaigns).
 */
export function CataloguePage({
  eyebrow,
  title,
  description,
  note,
  toolbar,
  listLabel,
  listState,
  children,
}: CataloguePageProps) {
  return (
    <>
      <div className={styles.intro}>
        <Container className={styles.introInner}>
          <PageHeading eyebrow={eyebrow} title={title} description={description} />
          {note ? <p className={styles.note}>{note}</p> : null}
        </Container>
      </div>
      <Container className={styles.list}>
        {toolbar}
        {listState ?? <CardGrid label={listLabel}>{children}</CardGrid>}
      </Container>
    </>
  );
}

import type { ReactNode } from 'react';

import styles from './page-heading.module.css';

type PageHeadingProps = {
  title: ReactNode;
  eyebrow?: ReactNode;
  description?: ReactNode;
};

/** The one h1 of a page, with an optional kicker above and a lead line below. */
export function PageHeading({ title, eyebrow, description }: PageHeadingProps) {
  return (
    <header className={styles.heading}>
      {eyebrow ? <p className={styles.eyebrow}>{eyebrow}</p> : null}
      <h1 className={styles.title}>{title}</h1>
      {description ? <p className={styles.description}>{description}</p> : null}
    </header>
  );
}

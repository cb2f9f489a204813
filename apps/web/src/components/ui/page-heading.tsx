import type { ReactNode } from 'react';

import { Eyebrow } from './eyebrow';
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
      {eyebrow ? <Eyebrow>{eyebrow}</Eyebrow> : null}
      <h1 className={styles.title}>{title}</h1>
      {description ? <p className={styles.description}>{description}</p> : null}
    </header>
  );
}

import { Link } from 'react-router';

import { ArrowRightIcon } from './icons';
import styles from './section-heading.module.css';

type SectionHeadingProps = {
  id: string;
  title: string;
  description?: string;
  action?: { to: string; label: string; accessibleLabel?: string };
};

/** An h2 with an optional "View more"-style link on the right. */
export function SectionHeading({ id, title, description, action }: SectionHeadingProps) {
  return (
    <div className={styles.heading}>
      <div className={styles.text}>
        <h2 id={id} className={styles.title}>
          {title}
        </h2>
        {description ? <p className={styles.description}>{description}</p> : null}
      </div>
      {action ? (
        <Link className={styles.action} to={action.to} aria-label={action.accessibleLabel}>
          {action.label}
          <ArrowRightIcon />
        </Link>
      ) : null}
    </div>
  );
}

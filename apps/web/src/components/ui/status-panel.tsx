import type { ReactNode } from 'react';

import styles from './status-panel.module.css';

type StatusPanelProps = {
  /** Above the heading: breadcrumbs or a badge. */
  kicker?: ReactNode;
  title: string;
  children: ReactNode;
  actions: ReactNode;
  imageSrc: string;
  imageAlt: string;
};

/** A big message with actions and an illustration, for pages that are not content. */
export function StatusPanel({ kicker, title, children, actions, imageSrc, imageAlt }: StatusPanelProps) {
  return (
    <section className={styles.panel} aria-labelledby="status-title">
      <div className={styles.text}>
        {kicker}
        <h1 id="status-title" className={styles.title}>
          {title}
        </h1>
        <div className={styles.body}>{children}</div>
        <div className={styles.actions}>{actions}</div>
      </div>
      <div className={styles.art}>
        <img src={imageSrc} alt={imageAlt} width={320} height={180} />
      </div>
    </section>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { ArrowRightIcon } from './icons';
import styles from './media-card.module.css';

type MediaCardProps = {
  to: string;
  title: string;
  imageSrc: string;
  imageAlt: string;
  description?: string;
  /** Badges or counts shown at the bottom of the card. */
  meta?: ReactNode;
  headingLevel?: 'h2' | 'h3';
  /** Cards above the fold load eagerly; the rest wait until scrolled near. */
  eager?: boolean;
};

/** A picture, a title that links somewhere, and a line of text. The whole card is clickable. */
export function MediaCard({
  to,
  title,
  imageSrc,
  imageAlt,
  description,
  meta,
  headingLevel: Heading = 'h3',
  eager = false,
}: MediaCardProps) {
  return (
    <article className={styles.card}>
      <div className={styles.media}>
        <img
          src={imageSrc}
          alt={imageAlt}
          width={320}
          height={180}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
        />
      </div>
      <div className={styles.body}>
        <Heading className={styles.title}>
          <Link className={styles.link} to={to}>
            {title}
          </Link>
        </Heading>
        {description ? <p className={styles.description}>{description}</p> : null}
        <div className={styles.footer}>
          <div className={styles.meta}>{meta}</div>
          <span className={styles.arrow} aria-hidden="true">
            <ArrowRightIcon />
          </span>
        </div>
      </div>
    </article>
  );
}

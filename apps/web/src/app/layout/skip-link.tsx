import type { MouseEvent } from 'react';

import styles from './skip-link.module.css';

/** First stop for keyboard users: jumps past the navigation to the page content. */
export function SkipLink({ targetId }: { targetId: string }) {
  // Move focus by hand: following the #fragment would add a history entry for the router.
  function skip(event: MouseEvent<HTMLAnchorElement>) {
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    target.focus();
    target.scrollIntoView?.();
  }

  return (
    <a className={styles.skip} href={`#${targetId}`} onClick={skip}>
      Skip to content
    </a>
  );
}

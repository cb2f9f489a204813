import { useId, type ReactNode } from 'react';

import styles from './list-panel.module.css';
import toolLayout from './tool-layout.module.css';

type ListPanelProps = {
  /** The panel's h2; the panel is a region named by it. */
  title: string;
  /** Beside the title, at the row's end: a badge. */
  titleAside?: ReactNode;
  /** A line under the title: what the list holds, what choosing an item does. */
  description?: ReactNode;
  /**
   * 'plain' stands on the page (under a tool's workspace); 'framed' is a white box like the input
   * panel it stands beside.
   */
  frame?: 'plain' | 'framed';
  /** A search field, then a CardList or, when there is no list to show, a ListState. */
  children: ReactNode;
};

/** A titled list of cards to choose from: a tool's earlier outputs, recent campaigns. */
export function ListPanel({ title, titleAside, description, frame = 'plain', children }: ListPanelProps) {
  const headingId = useId();
  return (
    <section
      className={frame === 'framed' ? toolLayout.inputPanel : styles.panel}
      aria-labelledby={headingId}
    >
      <div className={toolLayout.inputHeader}>
        <div className={styles.titleRow}>
          <h2 id={headingId} className={toolLayout.inputTitle}>
            {title}
          </h2>
          {titleAside}
        </div>
        {description ? <p className={toolLayout.inputDescription}>{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

type ListStateProps = {
  /** A line of text, and a Try again or a way out when there is one. */
  children: ReactNode;
  role?: 'status' | 'alert';
};

/**
 * What stands in the list's place inside a list panel: loading, nothing yet, nothing found, could
 * not be loaded. A slim dashed box; a page whose whole body is a list has components/ui's EmptyState.
 */
export function ListState({ children, role }: ListStateProps) {
  return (
    <div className={styles.state} role={role}>
      {children}
    </div>
  );
}

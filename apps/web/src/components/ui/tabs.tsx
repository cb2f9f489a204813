import { useRef, type KeyboardEvent, type ReactNode } from 'react';

import styles from './tabs.module.css';

export type TabItem<Id extends string> = { id: Id; label: string };

const tabId = (prefix: string, id: string) => `${prefix}-tab-${id}`;
const panelId = (prefix: string, id: string) => `${prefix}-panel-${id}`;

type TabListProps<Id extends string> = {
  /** Names the tab list for screen readers. */
  label: string;
  items: readonly TabItem<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
  /** Unique on the page: the tabs' and panels' ids start with it. */
  idPrefix: string;
};

/**
 * WAI-ARIA tabs: one tab in the Tab order, arrow keys (and Home, End) move between them and
 * select as they go.
 */
export function TabList<Id extends string>({ label, items, selected, onSelect, idPrefix }: TabListProps<Id>) {
  const buttons = useRef(new Map<Id, HTMLButtonElement>());

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % items.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + items.length) % items.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const item = items[next];
    if (!item) return;
    onSelect(item.id);
    buttons.current.get(item.id)?.focus();
  }

  return (
    <div role="tablist" aria-label={label} className={styles.list}>
      {items.map((item, index) => {
        const isSelected = item.id === selected;
        return (
          <button
            key={item.id}
            ref={(button) => {
              if (button) buttons.current.set(item.id, button);
              else buttons.current.delete(item.id);
            }}
            type="button"
            role="tab"
            id={tabId(idPrefix, item.id)}
            aria-selected={isSelected}
            aria-controls={panelId(idPrefix, item.id)}
            tabIndex={isSelected ? 0 : -1}
            className={styles.tab}
            onClick={() => onSelect(item.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

type TabPanelProps = {
  idPrefix: string;
  id: string;
  /** A panel not shown stays in the page (keeping its state) but hidden. */
  hidden?: boolean;
  children: ReactNode;
};

/** The content of one tab, labelled by its tab. */
export function TabPanel({ idPrefix, id, hidden, children }: TabPanelProps) {
  return (
    <div
      role="tabpanel"
      id={panelId(idPrefix, id)}
      aria-labelledby={tabId(idPrefix, id)}
      hidden={hidden}
      className={styles.panel}
    >
      {children}
    </div>
  );
}

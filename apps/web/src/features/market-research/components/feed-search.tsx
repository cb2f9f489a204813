import { useEffect, useId, useState } from 'react';

import styles from './market-feed.module.css';

type FeedSearchProps = {
  value: string;
  onSearch: (q: string) => void;
  label: string;
};

const DEBOUNCE_MS = 300;

/** Searches the area's items as the user types (after a short pause) or on Enter. */
export function FeedSearch({ value, onSearch, label }: FeedSearchProps) {
  const id = useId();
  const [text, setText] = useState(value);

  useEffect(() => {
    if (text.trim() === value.trim()) return;
    const timer = setTimeout(() => onSearch(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);

  return (
    <form
      role="search"
      className={styles.search}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <svg className={styles.searchIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        id={id}
        type="search"
        className={styles.searchInput}
        placeholder="Search this feed"
        value={text}
        maxLength={200}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}

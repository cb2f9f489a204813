import {
  COMPETITOR_QUERY_MAX,
  type CompetitorStatus,
  type SearchSort,
  type WindowUnit,
} from '@gem/contracts/competitor-search';
import { useId, useState, type Ref } from 'react';

import { Button } from '@/components/ui/button';
import { SelectField, SelectInput, TextInput } from '@/components/ui/fields';

import { checkWindow, convertAmount, writeSearchParams, type SearchState } from '../search-params';
import styles from './competitor-search.module.css';

type SearchFormProps = {
  /** The search in the address; the form starts from it and follows it (Back, a shared link). */
  value: SearchState;
  competitors: readonly CompetitorStatus[];
  onSearch: (next: SearchState) => void;
  queryRef?: Ref<HTMLInputElement>;
};

type Draft = { query: string; site: string; unit: WindowUnit; amount: string; sort: SearchSort };

const draftOf = (state: SearchState): Draft => ({
  query: state.query,
  site: state.site,
  unit: state.window.unit,
  amount: String(state.window.amount),
  sort: state.sort,
});

const unitOptions = [
  { value: 'd', label: 'Days' },
  { value: 'w', label: 'Weeks' },
] as const;

const sortOptions: { value: SearchSort; label: string }[] = [
  { value: 'date', label: 'Date' },
  { value: 'relevance', label: 'Relevance' },
];

/** Spec §2: the query, the competitor, the window (Days or Weeks and a number), Search. */
export function SearchForm({ value, competitors, onSearch, queryRef }: SearchFormProps) {
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(value));
  // A new search in the address (Back, Forward, a clicked example) resets the fields to it.
  const key = writeSearchParams(value).toString();
  const [shown, setShown] = useState(key);
  if (shown !== key) {
    setShown(key);
    setDraft(draftOf(value));
  }

  const period = checkWindow(draft.unit, draft.amount);
  const blank = draft.query.trim() === '';
  const unitWord = draft.unit === 'd' ? 'days' : 'weeks';
  const siteOptions = [
    { value: '', label: 'All competitors' },
    ...competitors.map((c) => ({ value: c.siteSearch, label: c.name })),
  ];
  // A link may name a site the list does not (yet) have; keep it choosable rather than hide it.
  if (draft.site && !siteOptions.some((o) => o.value === draft.site)) {
    siteOptions.push({ value: draft.site, label: draft.site });
  }

  return (
    <form
      role="search"
      aria-label="Competitor content"
      className={styles.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (blank || !period.ok) return;
        onSearch({ query: draft.query.trim(), site: draft.site, window: period.window, sort: draft.sort });
      }}
    >
      <div className={styles.queryRow}>
        <div className={styles.queryField}>
          <label htmlFor={`${id}-query`} className={styles.label}>
            Topic or words
          </label>
          <TextInput
            ref={queryRef}
            id={`${id}-query`}
            type="search"
            placeholder="e.g. ESG reporting"
            value={draft.query}
            maxLength={COMPETITOR_QUERY_MAX}
            autoComplete="off"
            onChange={(event) => setDraft({ ...draft, query: event.target.value })}
          />
        </div>
        <Button type="submit" variant="brand" className={styles.searchButton} disabled={blank || !period.ok}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          Search
        </Button>
      </div>

      <div className={styles.filters}>
        <SelectField
          label="Competitor"
          value={draft.site}
          options={siteOptions}
          onValueChange={(site) => setDraft({ ...draft, site })}
        />
        <div role="group" aria-labelledby={`${id}-window`} className={styles.window}>
          <span id={`${id}-window`} className={styles.label}>
            Published in the last
          </span>
          <div className={styles.windowControls}>
            <TextInput
              id={`${id}-amount`}
              type="text"
              inputMode="numeric"
              className={styles.amount}
              aria-label={`Number of ${unitWord}`}
              aria-invalid={!period.ok || undefined}
              aria-describedby={period.ok ? undefined : `${id}-amount-error`}
              value={draft.amount}
              onChange={(event) => setDraft({ ...draft, amount: event.target.value })}
            />
            <SelectInput
              aria-label="Unit"
              value={draft.unit}
              onChange={(event) => {
                const unit = event.target.value as WindowUnit;
                const check = checkWindow(draft.unit, draft.amount);
                const amount = check.ok
                  ? String(convertAmount(check.window.amount, draft.unit, unit))
                  : draft.amount;
                setDraft({ ...draft, unit, amount });
              }}
            >
              {unitOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </SelectInput>
          </div>
          {period.ok ? null : (
            <p id={`${id}-amount-error`} className={styles.fieldError} role="alert">
              {period.message}
            </p>
          )}
        </div>
        <SelectField
          label="Sort by"
          value={draft.sort}
          options={sortOptions}
          onValueChange={(sort) => setDraft({ ...draft, sort })}
        />
      </div>
    </form>
  );
}

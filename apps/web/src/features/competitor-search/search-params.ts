import {
  DEFAULT_WINDOW_DAYS,
  searchSorts,
  WINDOW_MAX,
  type SearchSort,
  type WindowUnit,
} from '@gem/contracts/competitor-search';

import { formatInteger } from '@/lib/format-number';

/** How far back to look: the last `amount` days or weeks (spec §9: d or w). */
export type SearchWindow = { unit: WindowUnit; amount: number };

/** A search as the address holds it (`?q=…&site=…&window=d90&sort=relevance`). */
export type SearchState = {
  query: string;
  /** A competitor's `siteSearch`, or '' for all competitors. */
  site: string;
  window: SearchWindow;
  sort: SearchSort;
};

export const defaultWindow: SearchWindow = { unit: 'd', amount: DEFAULT_WINDOW_DAYS };

export const emptySearch: SearchState = { query: '', site: '', window: defaultWindow, sort: 'date' };

/** `d90`, `w12`: what the request's `dateRestrict` and the address take. */
export const dateRestrictOf = ({ unit, amount }: SearchWindow): string => `${unit}${amount}`;

const windowPattern = /^([dw])(\d{1,4})$/;

/** A window from the address; the default one for anything the server would refuse. */
export function parseWindow(value: string | null): SearchWindow {
  const match = windowPattern.exec(value ?? '');
  if (!match) return defaultWindow;
  const unit = match[1] as WindowUnit;
  const amount = Number(match[2]);
  return amount >= 1 && amount <= WINDOW_MAX[unit] ? { unit, amount } : defaultWindow;
}

export function readSearchParams(params: URLSearchParams): SearchState {
  const sort = params.get('sort');
  return {
    query: params.get('q')?.trim() ?? '',
    site: params.get('site')?.trim() ?? '',
    window: parseWindow(params.get('window')),
    sort: (searchSorts as readonly (string | null)[]).includes(sort) ? (sort as SearchSort) : 'date',
  };
}

/** The address of a search; defaults are left out except the window, so a shared link says it. */
export function writeSearchParams(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.query.trim()) params.set('q', state.query.trim());
  if (state.site) params.set('site', state.site);
  params.set('window', dateRestrictOf(state.window));
  if (state.sort !== 'date') params.set('sort', state.sort);
  return params;
}

const unitWords = { d: ['day', 'days'], w: ['week', 'weeks'] } as const;

/** '90 days', '1 week'. */
export function describeWindow({ unit, amount }: SearchWindow): string {
  return `${formatInteger(amount)} ${unitWords[unit][amount === 1 ? 0 : 1]}`;
}

export type WindowCheck = { ok: true; window: SearchWindow } | { ok: false; message: string };

/** Spec §5: the number of days (or weeks) is a whole number, at least 1; at most about ten years. */
export function checkWindow(unit: WindowUnit, text: string): WindowCheck {
  const value = text.trim();
  const plural = unitWords[unit][1];
  if (value === '') return { ok: false, message: `Enter the number of ${plural}, at least 1.` };
  if (!/^\d+$/.test(value)) return { ok: false, message: `Enter a whole number of ${plural}, like 30.` };
  const amount = Number(value);
  if (amount < 1) return { ok: false, message: `The number of ${plural} must be at least 1.` };
  if (amount > WINDOW_MAX[unit]) {
    return { ok: false, message: `At most ${formatInteger(WINDOW_MAX[unit])} ${plural} (about ten years).` };
  }
  return { ok: true, window: { unit, amount } };
}

/** The same stretch of time in the other unit, rounded, at least 1 (90 days → 13 weeks). */
export function convertAmount(amount: number, from: WindowUnit, to: WindowUnit): number {
  if (from === to) return amount;
  const converted = to === 'w' ? Math.round(amount / 7) : amount * 7;
  return Math.min(Math.max(1, converted), WINDOW_MAX[to]);
}

/** The window in days (for comparing windows of either unit). */
export const windowDays = ({ unit, amount }: SearchWindow): number => (unit === 'w' ? amount * 7 : amount);

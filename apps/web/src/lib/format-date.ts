// GEM's one date formatter (local time, English month names). The parts are put together by
// hand so the pattern is exactly the spec's, whatever punctuation a locale would add.
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const monthDayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit' });

type Part = Intl.DateTimeFormatPartTypes;

function partsOf(format: Intl.DateTimeFormat, date: Date): Partial<Record<Part, string>> {
  return Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
}

function toDate(value: string | Date): Date | null {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Spec §9: dates are shown as 'MMM d, yyyy HH:mm' (local time), e.g. 'Nov 22, 2026 09:05'. */
export function formatDateTime(value: string | Date): string {
  const date = toDate(value);
  if (!date) return 'Unknown date';
  const { month, day, year, hour, minute } = partsOf(dateTimeFormat, date);
  return `${month} ${day}, ${year} ${hour}:${minute}`;
}

/** A day, 'MMM d, yyyy' (local time), e.g. 'Mar 2, 2026'; 'Unknown date' (spec §8) for none. */
export function formatDate(value: string | Date | null): string {
  const date = value === null ? null : toDate(value);
  if (!date) return 'Unknown date';
  const { month, day, year } = partsOf(dateTimeFormat, date);
  return `${month} ${day}, ${year}`;
}

/** A short day, 'MMM dd' (local time), e.g. 'Mar 01'; null for a value that is not a date. */
export function formatMonthDay(value: string | Date): string | null {
  const date = toDate(value);
  if (!date) return null;
  const { month, day } = partsOf(monthDayFormat, date);
  return `${month} ${day}`;
}

import { shortAmount } from '@gem/contracts/campaign-audience-builder';

import { formatDate } from '@/lib/format-date';
import { formatInteger, formatOneDecimal } from '@/lib/format-number';

/** A CRM day (YYYY-MM-DD) as a local date, so it reads as that day wherever the reader is. */
export function formatDay(day: string | null): string | null {
  if (!day) return null;
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return null;
  return formatDate(new Date(y, m - 1, d));
}

/** "1 contact", "1,234 contacts". */
export const contactsOf = (count: number) =>
  `${formatInteger(count)} ${count === 1 ? 'contact' : 'contacts'}`;

/** "12.5%" of `part` in `whole`; "–" when there is no whole. */
export const rateOf = (part: number, whole: number) =>
  whole > 0 ? `${formatOneDecimal((part / whole) * 100)}%` : '–';

/** An amount in short, with the CRM's currency when it names one: "PLN 48.3M", "950K". */
export const formatAmount = (value: number, currency: string | null) =>
  currency ? `${currency} ${shortAmount(value)}` : shortAmount(value);

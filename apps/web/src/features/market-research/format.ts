import type { FeedItem } from '@gem/contracts/market-research';

import { formatMonthDay } from '@/lib/format-date';

/** Spec §2: an item's date as 'Mon DD' (local time), or 'no date'. */
export function formatItemDate(value: string | null): string {
  return (value ? formatMonthDay(value) : null) ?? 'no date';
}

/** The area whose items come from the professional social network (spec §2, Market areas). */
export const SOCIAL_NETWORK_AREA = 'pwc';

/**
 * Spec §2: the source is the link's host without 'www.', or, for the social-network area,
 * the first author's name.
 */
export function itemSource(item: Pick<FeedItem, 'url' | 'authors'>, marketId: string): string {
  const author = item.authors[0]?.name;
  if (marketId === SOCIAL_NETWORK_AREA && author) return author;
  try {
    return new URL(item.url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

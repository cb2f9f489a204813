import type { FeedItem } from '@gem/contracts/market-research';

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Spec §2: an item's date as 'Mon DD' (local time), or 'no date'. */
export function formatItemDate(value: string | null): string {
  if (!value) return 'no date';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'no date';
  return `${months[date.getMonth()]} ${String(date.getDate()).padStart(2, '0')}`;
}

/** When the feed was last read, as 'MMM d, yyyy HH:mm' (spec §9). */
export function formatRefreshedAt(value: string): string {
  const date = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${months[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
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

import type { NormalisedItem } from './parsed-feed';

/**
 * The bundled sample feeds are dated around this day. GEM moves every sample date forward by
 * the whole days between it and today, so the samples always read as recent news while keeping
 * their order and spacing. (Retention never removes them either way: a sample document lists
 * its items for good, and only items a feed no longer lists are purged.)
 */
export const SAMPLE_DATES_ANCHOR = Date.UTC(2026, 2, 2);
const DAY = 24 * 60 * 60 * 1000;

export function shiftSampleDates(items: NormalisedItem[], now: Date): NormalisedItem[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const shift = Math.round((today - SAMPLE_DATES_ANCHOR) / DAY) * DAY;
  return items.map((item) =>
    item.publishedAt ? { ...item, publishedAt: new Date(item.publishedAt.getTime() + shift) } : item,
  );
}

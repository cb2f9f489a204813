/**
 * A date GEM can show: parseable, after 1990, and not more than a day ahead. Its own module so
 * that the sitemap reader on the server's thread can use it without loading the page parser's
 * DOM (page-facts.ts).
 */
export function plausibleDate(raw: unknown, now = Date.now()): string | null {
  if (typeof raw !== 'string' || raw.length > 64) return null;
  const at = Date.parse(raw.trim());
  if (!Number.isFinite(at) || at < Date.UTC(1990, 0, 1) || at > now + 24 * 3600_000) return null;
  return new Date(at).toISOString();
}

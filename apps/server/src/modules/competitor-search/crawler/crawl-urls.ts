/**
 * URLs as the crawler keeps them: one key per page, whatever tracking parameters or fragment
 * led to it, and the test of whether a page belongs to a competitor's site path.
 */

/** Query parameters that only say where a visitor came from: never part of a page's identity. */
const TRACKING_PARAMETERS = new Set([
  'gclid',
  'gclsrc',
  'gbraid',
  'wbraid',
  'dclid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'ref_src',
  'spm',
]);
const TRACKING_PREFIXES = ['utm_', 'hsa_', 'pk_', 'mtm_', 'matomo_'];

const isTracking = (name: string) => {
  const lower = name.toLowerCase();
  return TRACKING_PARAMETERS.has(lower) || TRACKING_PREFIXES.some((p) => lower.startsWith(p));
};

const URL_MAX = 2000;

/**
 * The page's key: an absolute http(s) URL without fragment, credentials or tracking parameters
 * (the other parameters keep their order). Undefined for anything else.
 */
export function pageKey(raw: string, base?: string): string | undefined {
  if (raw.length > URL_MAX) return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  url.hash = '';
  const kept = [...url.searchParams].filter(([name]) => !isTracking(name));
  url.search = kept.length === 0 ? '' : new URLSearchParams(kept).toString();
  return url.href;
}

/** Whether the page key is the site's path or below it ('https://x/pl/' holds 'https://x/pl/a'). */
export function isUnderSite(key: string, site: string): boolean {
  return key.startsWith(site) || key === site.slice(0, -1);
}

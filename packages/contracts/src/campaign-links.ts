/**
 * Tracked links (issue 29): every link in a campaign's asset carries UTM parameters built from
 * the campaign (source per channel, medium, the campaign's name as a slug). A link that already
 * carries a UTM parameter is left as it is, and so is anything that is not an http(s) link.
 * Shared by the server (the pack, the stored asset) and the web (the preview), without zod.
 */

export type UtmTags = {
  /** Where the visitor comes from: `linkedin`, `google`, `newsletter`… */
  source: string;
  /** The kind of channel: `social`, `cpc`, `email`… */
  medium: string;
  /** The campaign's slug (campaignSlug). */
  campaign: string;
  /** Optional: which asset or variant (utm_content). */
  content?: string;
};

/** The longest slug: long names are cut at a word. */
export const CAMPAIGN_SLUG_MAX = 60;

/** Letters a decomposition does not strip to ASCII. */
const SPECIAL_LETTERS: Record<string, string> = {
  ł: 'l',
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  đ: 'd',
  þ: 'th',
};

/**
 * The campaign's name as a UTM slug: lower case, accents off (ł is l), every run of other
 * characters one hyphen, none at either end; `campaign` when nothing is left.
 */
export function campaignSlug(name: string): string {
  const plain = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[łßæøœđþ]/g, (letter) => SPECIAL_LETTERS[letter] ?? letter);
  let slug = '';
  for (const char of plain) {
    const keep = (char >= 'a' && char <= 'z') || (char >= '0' && char <= '9');
    if (keep) slug += char;
    else if (slug !== '' && !slug.endsWith('-')) slug += '-';
  }
  slug = slug.replace(/-$/, '');
  if (slug.length > CAMPAIGN_SLUG_MAX) {
    const cut = slug.slice(0, CAMPAIGN_SLUG_MAX);
    const lastHyphen = cut.lastIndexOf('-');
    slug = lastHyphen > 0 ? cut.slice(0, lastHyphen) : cut;
  }
  return slug || 'campaign';
}

/** Whether the URL carries any utm_ parameter already. */
function hasUtm(url: URL): boolean {
  for (const key of url.searchParams.keys()) if (key.toLowerCase().startsWith('utm_')) return true;
  return false;
}

/**
 * The link with the campaign's UTM parameters added (after its own, before its #fragment). A
 * link with a UTM parameter already, one that is not http(s) or not a URL comes back as it is.
 */
export function withUtm(link: string, tags: UtmTags): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return link;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || hasUtm(url)) return link;
  url.searchParams.append('utm_source', tags.source);
  url.searchParams.append('utm_medium', tags.medium);
  url.searchParams.append('utm_campaign', tags.campaign);
  if (tags.content) url.searchParams.append('utm_content', tags.content);
  return url.href;
}

/** Characters that end a bare link in running text. */
const LINK_END = new Set([' ', '\t', '\n', '\r', '<', '>', '"', '`', ')', ']']);
/** Punctuation that ends a sentence rather than a link when a link is followed by it. */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', '…', '\u2019', "'"]);

/** A link found in a text: where it starts and ends. */
export type FoundLink = { start: number; end: number; url: string };

/**
 * Every http(s) link in a text (bare, or the target of a Markdown link), in order. A scan, no
 * backtracking: the text is a model's answer or what a marketer typed.
 */
export function findLinks(text: string): FoundLink[] {
  const found: FoundLink[] = [];
  let from = 0;
  for (;;) {
    const http = text.indexOf('http', from);
    if (http < 0) return found;
    const rest = text.slice(http, http + 8).toLowerCase();
    const scheme = rest.startsWith('https://') ? 8 : rest.startsWith('http://') ? 7 : 0;
    const before = http === 0 ? ' ' : text[http - 1]!;
    const starts = scheme > 0 && !/[\p{L}\p{N}_]/u.test(before);
    if (!starts) {
      from = http + 4;
      continue;
    }
    let end = http + scheme;
    while (end < text.length && !LINK_END.has(text[end]!)) end += 1;
    while (end > http + scheme && TRAILING.has(text[end - 1]!)) end -= 1;
    if (end > http + scheme) found.push({ start: http, end, url: text.slice(http, end) });
    from = Math.max(end, http + scheme);
  }
}

/** The text with the campaign's UTM parameters on every link that has none. */
export function tagLinks(text: string, tags: UtmTags): string {
  let out = '';
  let at = 0;
  for (const link of findLinks(text)) {
    out += text.slice(at, link.start) + withUtm(link.url, tags);
    at = link.end;
  }
  return out + text.slice(at);
}

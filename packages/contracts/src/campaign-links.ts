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

/** The length of the link's `http://` or `https://`, 0 when it starts with neither. */
function schemeLength(link: string): number {
  const head = link.slice(0, 8).toLowerCase();
  return head.startsWith('https://') ? 8 : head.startsWith('http://') ? 7 : 0;
}

/**
 * The link with the campaign's UTM parameters added (after its own, before its #fragment). A
 * link with a UTM parameter already, one that is not http(s), has no host or holds a space comes
 * back as it is. (Plain string work: contracts run where the URL class may not be typed.)
 */
export function withUtm(link: string, tags: UtmTags): string {
  const scheme = schemeLength(link);
  if (scheme === 0 || /\s/.test(link)) return link;
  const hashAt = link.indexOf('#');
  const base = hashAt < 0 ? link : link.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : link.slice(hashAt);
  const queryAt = base.indexOf('?');
  const hostEnd = [base.indexOf('/', scheme), queryAt]
    .filter((i) => i >= 0)
    .reduce((a, b) => Math.min(a, b), base.length);
  if (hostEnd === scheme) return link;
  const query = queryAt < 0 ? '' : base.slice(queryAt + 1);
  if (query.split('&').some((pair) => pair.toLowerCase().startsWith('utm_'))) return link;
  const added = [
    ['utm_source', tags.source],
    ['utm_medium', tags.medium],
    ['utm_campaign', tags.campaign],
    ...(tags.content ? [['utm_content', tags.content]] : []),
  ]
    .map(([key, value]) => `${key}=${encodeURIComponent(value!)}`)
    .join('&');
  // A bare host gets its path, as a browser writes it: https://example.com/.
  const path = hostEnd === base.length && queryAt < 0 ? `${base}/` : base;
  const joint = queryAt < 0 ? '?' : query === '' || query.endsWith('&') ? '' : '&';
  return `${path}${joint}${added}${fragment}`;
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
    const scheme = schemeLength(text.slice(http, http + 8));
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

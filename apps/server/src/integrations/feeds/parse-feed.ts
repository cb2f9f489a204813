import { cutAtGrapheme, withoutBidiControls } from '@gem/contracts/text-rules';
import { parseFeed, type AtomFeed, type JsonFeed, type RssFeed } from 'feedsmith';
import { convert, type HtmlToTextOptions } from 'html-to-text';
import { FeedParseError, type NormalisedItem, type ParseOptions } from './parsed-feed';

/**
 * Turns a feed document (JSON Feed 1.0/1.1, RSS 2.0, Atom; RDF/RSS 1.0 too) into items with
 * the spec's Feed item fields (§3). Everything that reaches the browser is checked here:
 * HTML becomes plain text, links and images must be http(s), titles and excerpts are capped.
 */

export const EXCERPT_MAX = 600;
const TITLE_MAX = 300;
const ID_MAX = 1000;
const URL_MAX = 2000;
const AUTHORS_MAX = 10;
const DEFAULT_MAX_ITEMS = 500;

// Only our own sample images, never an arbitrary path on GEM.
const LOCAL_IMAGE = /^\/images\/feed-samples\/[a-z0-9-]+\.(?:svg|png|jpg|webp)$/;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\v\f\u000e-\u001f\u007f]/g;

/** Collapses whitespace; strips control and bidirectional formatting characters. */
export function tidy(text: string): string {
  return withoutBidiControls(text).replace(CONTROL_CHARACTERS, '').replace(/\s+/g, ' ').trim();
}

/**
 * How much of an HTML fragment is read for its text: the converter's time grows with the
 * number of tags (and the HTML parser's with the square of their nesting, "<b><b><b>…"), and
 * only the first 600 characters are kept. A fragment is read in growing prefixes, cut before
 * a "<", until the text is longer than any field taken from it, up to this many tags (and
 * 128 characters a tag). Elements nested deeper than HTML_DEPTH_MAX are not read: the
 * converter recurses once a level.
 */
export const HTML_TAGS_MAX = 8192;
const HTML_DEPTH_MAX = 256;

const CONVERT_OPTIONS = {
  wordwrap: false,
  limits: { maxDepth: HTML_DEPTH_MAX, ellipsis: '' },
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'iframe', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
} satisfies HtmlToTextOptions;

/** The length of the longest prefix of `html` with at most `tags` "<"s and `chars` characters. */
function prefixLength(html: string, tags: number, chars: number): number {
  let at = -1;
  for (let k = 0; k <= tags; k++) {
    at = html.indexOf('<', at + 1);
    if (at === -1 || at > chars) return Math.min(html.length, chars);
  }
  return at;
}

/** Plain text of an HTML fragment: no tags, no images, no link targets, entities decoded. */
export function htmlToText(html: string): string {
  for (let tags = HTML_TAGS_MAX / 16; ; tags *= 4) {
    const end = prefixLength(html, tags, tags * 128);
    const text = tidy(convert(end < html.length ? html.slice(0, end) : html, CONVERT_OPTIONS));
    if (end >= html.length || text.length > EXCERPT_MAX || tags >= HTML_TAGS_MAX) return text;
  }
}

const TRAILING_PUNCTUATION = new Set([',', '.', ';', ':', '–', '-']);

/** Cut at a word boundary with an ellipsis. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = cutAtGrapheme(text, max - 1);
  const space = cut.lastIndexOf(' ');
  const kept = space > max * 0.6 ? cut.slice(0, space) : cut;
  let end = kept.length;
  while (end > 0 && (TRAILING_PUNCTUATION.has(kept[end - 1]!) || /\s/.test(kept[end - 1]!))) end--;
  return `${kept.slice(0, end)}…`;
}

// Feed text is third-party input up to the 5 MiB document cap: the scans below read it once,
// left to right. No pattern here may backtrack over it (a tag-like pattern tried at every "<"
// of "<a<a<a…" takes time in the square of the length).

const isAsciiLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** HTML's ASCII whitespace: tab, line feed, form feed, carriage return, space. */
const isHtmlSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;

/**
 * Whether the text holds markup: a tag ("<" then a letter, "!" or "/", and a ">" after it) or
 * a character reference ("&amp;", "&#8217;"). Plain text goes around the HTML converter.
 */
export function looksLikeHtml(s: string): boolean {
  const lastClose = s.lastIndexOf('>');
  for (let i = s.indexOf('<'); i !== -1 && i < lastClose - 1; i = s.indexOf('<', i + 1)) {
    const c = s.charCodeAt(i + 1);
    if (isAsciiLetter(c) || c === 0x21 || c === 0x2f) return true;
  }
  for (let i = s.indexOf('&'); i !== -1; i = s.indexOf('&', i + 1)) {
    let j = i + 1;
    for (let c = s.charCodeAt(j); isAsciiLetter(c) || isDigit(c) || c === 0x23; c = s.charCodeAt(++j));
    if (j > i + 1 && s.charCodeAt(j) === 0x3b) return true;
  }
  return false;
}

function plain(value: string | undefined): string {
  if (!value) return '';
  return looksLikeHtml(value) ? htmlToText(value) : tidy(value);
}

/** An absolute http(s) URL, or undefined. */
export function httpUrl(raw: string | undefined, base: string): string | undefined {
  if (!raw) return undefined;
  const trimmed = raw.trim();
  if (!trimmed || trimmed.length > URL_MAX) return undefined;
  try {
    const u = new URL(trimmed, base.startsWith('http') ? base : undefined);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    if (u.username || u.password) return undefined;
    return u.href;
  } catch {
    return undefined;
  }
}

/** The URL without fragment and tracking parameters (utm_*), for deduplication. */
export function canonicalUrl(url: string): string {
  const u = new URL(url);
  u.hash = '';
  for (const name of [...u.searchParams.keys()]) {
    if (name.toLowerCase().startsWith('utm_')) u.searchParams.delete(name);
  }
  if ([...u.searchParams.keys()].length === 0) u.search = '';
  return u.href;
}

function imageUrl(raw: string | undefined, options: ParseOptions): string | null {
  if (!raw) return null;
  const trimmed = raw.trim();
  if (options.localImages && LOCAL_IMAGE.test(trimmed)) return trimmed;
  return httpUrl(trimmed, options.baseUrl) ?? null;
}

/**
 * The first <img src> of an HTML fragment. Read as a browser's tokenizer reads tags, in one
 * pass: comments are skipped, and nothing inside an attribute value is taken for a tag.
 */
export function firstImageIn(html: string | undefined): string | undefined {
  if (!html) return undefined;
  const n = html.length;
  /** The end of a run from `from` of characters that are not `stop`s. */
  const runEnd = (from: number, stop: (c: number) => boolean) => {
    let i = from;
    while (i < n && !stop(html.charCodeAt(i))) i++;
    return i;
  };
  const endsName = (c: number) => isHtmlSpace(c) || c === 0x2f || c === 0x3e; // space, "/", ">"
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i)) {
    i++;
    if (html.startsWith('!--', i)) {
      const end = html.indexOf('-->', i + 3);
      if (end === -1) return undefined;
      i = end + 3;
      continue;
    }
    if (html.charCodeAt(i) === 0x2f) i++; // an end tag: its attributes are read, and ignored
    if (!isAsciiLetter(html.charCodeAt(i))) continue;
    const nameEnd = runEnd(i, endsName);
    const isImg = nameEnd - i === 3 && html.slice(i, nameEnd).toLowerCase() === 'img';
    i = nameEnd;
    // The tag's attributes, up to its ">".
    for (;;) {
      i = runEnd(i, (c) => !isHtmlSpace(c) && c !== 0x2f);
      if (i >= n) return undefined;
      if (html.charCodeAt(i) === 0x3e) break;
      // A name runs to a space, "/", ">" or "=" (an "=" first is part of the name).
      const attrEnd = runEnd(i + 1, (c) => endsName(c) || c === 0x3d);
      const attr = html.slice(i, attrEnd);
      i = runEnd(attrEnd, (c) => !isHtmlSpace(c));
      if (html.charCodeAt(i) !== 0x3d) continue;
      i = runEnd(i + 1, (c) => !isHtmlSpace(c));
      let value: string;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        if (close === -1) return undefined;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const end = runEnd(i, (c) => isHtmlSpace(c) || c === 0x3e);
        value = html.slice(i, end);
        i = end;
      }
      if (isImg && value && attr.toLowerCase() === 'src') return value.replaceAll('&amp;', '&');
    }
  }
  return undefined;
}

function date(value: unknown): Date | null {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return null;
  return value;
}

const parseDate = (raw: string): Date | undefined => {
  const d = new Date(raw.trim());
  return Number.isNaN(d.getTime()) ? undefined : d;
};

type Draft = {
  guid: string | undefined;
  link: string | undefined;
  title: string | undefined;
  html: string | undefined;
  text: string | undefined;
  image: string | undefined;
  published: Date | undefined;
  authors: (string | undefined)[];
};

type MediaLike = {
  contents?: { url?: string; medium?: string; type?: string }[];
  thumbnails?: { url?: string }[];
  groups?: {
    contents?: { url?: string; medium?: string; type?: string }[];
    thumbnails?: { url?: string }[];
  }[];
};

function mediaImage(media: MediaLike | undefined): string | undefined {
  if (!media) return undefined;
  const isImage = (c: { medium?: string; type?: string }) =>
    c.medium === 'image' || (c.type ?? '').startsWith('image/');
  return (
    media.thumbnails?.[0]?.url ??
    media.contents?.find(isImage)?.url ??
    media.groups?.flatMap((g) => g.thumbnails ?? [])[0]?.url ??
    media.groups?.flatMap((g) => g.contents ?? []).find(isImage)?.url
  );
}

/** The text between the first "(" and the ")" after it, when there is some. */
function inParentheses(raw: string): string | undefined {
  for (let open = raw.indexOf('('); open !== -1; open = raw.indexOf('(', open + 1)) {
    const close = raw.indexOf(')', open + 1);
    if (close === -1) return undefined;
    if (close > open + 1) return raw.slice(open + 1, close);
  }
  return undefined;
}

/** One word with an "@" inside it. */
const isEmailAddress = (s: string) => s.slice(1, -1).includes('@') && !/\s/.test(s);

/** "jane@example.com (Jane Doe)" → "Jane Doe"; a bare e-mail address is not a name. */
export function rssAuthorName(raw: string): string | undefined {
  const name = inParentheses(raw) ?? raw;
  return isEmailAddress(name.trim()) ? undefined : name;
}

function fromJson(item: JsonFeed.Item<Date>): Draft {
  const imageAttachment = item.attachments?.find((a) => (a.mime_type ?? '').startsWith('image/'));
  return {
    guid: item.id,
    link: item.url ?? item.external_url,
    title: item.title,
    html: item.content_html,
    text: item.content_text ?? item.summary,
    image: item.image ?? item.banner_image ?? imageAttachment?.url ?? firstImageIn(item.content_html),
    published: item.date_published ?? item.date_modified,
    authors: (item.authors ?? []).map((a) => a.name),
  };
}

function fromRss(item: RssFeed.Item<Date>): Draft {
  const html = item.content?.encoded ?? item.description;
  const enclosure = item.enclosures?.find((e) => (e.type ?? '').startsWith('image/'));
  const authors = (item.authors ?? []).map((a) => rssAuthorName(a.name ?? '')).filter(Boolean);
  return {
    guid: item.guid?.value,
    link: item.link ?? (item.guid?.isPermaLink !== false ? item.guid?.value : undefined),
    title: item.title ?? item.dc?.titles?.[0],
    html,
    text: undefined,
    image: mediaImage(item.media) ?? enclosure?.url ?? firstImageIn(html),
    published: item.pubDate ?? item.dc?.dates?.[0] ?? item.dcterms?.modified?.[0],
    authors: authors.length > 0 ? authors : (item.dc?.creators ?? []),
  };
}

function atomText(text: AtomFeed.Text | AtomFeed.Content | undefined): { html?: string; text?: string } {
  if (!text?.value) return {};
  return text.type === 'html' || text.type === 'xhtml' ? { html: text.value } : { text: text.value };
}

function fromAtom(entry: AtomFeed.Entry<Date>): Draft {
  const links = entry.links ?? [];
  const alternate = links.find((l) => !l.rel || l.rel === 'alternate') ?? links.find((l) => l.rel !== 'self');
  const enclosure = links.find((l) => l.rel === 'enclosure' && (l.type ?? '').startsWith('image/'));
  const body = entry.content?.value ? atomText(entry.content) : atomText(entry.summary);
  const title = atomText(entry.title);
  return {
    guid: entry.id,
    link: alternate?.href,
    title: title.html ? htmlToText(title.html) : title.text,
    html: body.html,
    text: body.text,
    image: mediaImage(entry.media) ?? enclosure?.href ?? firstImageIn(body.html),
    published: entry.published ?? entry.updated,
    authors: (entry.authors ?? []).map((a) => a.name),
  };
}

function normalise(draft: Draft, options: ParseOptions): NormalisedItem | null {
  const url = httpUrl(draft.link, options.baseUrl);
  // An item must open somewhere safe: no link (or a javascript: one) and it is left out.
  if (!url) return null;
  const contentText = shorten(draft.text ? plain(draft.text) : plain(draft.html), EXCERPT_MAX);
  const title = shorten(plain(draft.title) || shorten(contentText, 100), TITLE_MAX);
  if (!title) return null;
  const guid = draft.guid ? cutAtGrapheme(tidy(draft.guid), ID_MAX) || null : null;
  return {
    guid,
    canonicalUrl: canonicalUrl(url),
    url,
    title,
    imageUrl: imageUrl(draft.image, options),
    publishedAt: date(draft.published),
    contentText,
    authors: draft.authors
      .map((a) => plain(a))
      .filter((a) => a.length > 0)
      .slice(0, AUTHORS_MAX)
      .map((a) => a.slice(0, 200)),
  };
}

/** Leaves out later items with an id or a canonical URL already seen in the document. */
export function dedupe(items: NormalisedItem[]): NormalisedItem[] {
  const ids = new Set<string>();
  const urls = new Set<string>();
  return items.filter((item) => {
    if ((item.guid && ids.has(item.guid)) || urls.has(item.canonicalUrl)) return false;
    if (item.guid) ids.add(item.guid);
    urls.add(item.canonicalUrl);
    return true;
  });
}

/** Parses one document. Throws FeedParseError when it is not a readable feed. */
export function parseFeedDocument(body: string, options: ParseOptions): NormalisedItem[] {
  const maxItems = options.maxItems ?? DEFAULT_MAX_ITEMS;
  let parsed: ReturnType<typeof parseFeed<Date>>;
  try {
    parsed = parseFeed<Date>(body.trim(), { parseDateFn: parseDate as (raw: string) => Date, maxItems });
  } catch (err) {
    throw new FeedParseError(`not a feed GEM can read: ${(err as Error).message}`, { cause: err });
  }
  let drafts: Draft[];
  switch (parsed.format) {
    case 'json':
      drafts = (parsed.feed.items ?? []).map(fromJson);
      break;
    case 'rss':
      drafts = (parsed.feed.items ?? []).map(fromRss);
      break;
    case 'rdf':
      drafts = (parsed.feed.items ?? []).map((item) =>
        fromRss({ title: item.title, link: item.link, description: item.description, dc: item.dc }),
      );
      break;
    case 'atom':
      drafts = (parsed.feed.entries ?? []).map(fromAtom);
      break;
  }
  return dedupe(
    drafts
      .slice(0, maxItems)
      .map((d) => normalise(d, options))
      .filter((i): i is NormalisedItem => i !== null),
  );
}

/** Text of a feed body, in the charset the response or the XML declaration names (UTF-8 otherwise). */
export function decodeBody(body: Buffer, contentType: string | undefined): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  const head = body.subarray(0, 200).toString('latin1');
  const fromXml = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1];
  const label = (fromHeader ?? fromXml ?? 'utf-8').toLowerCase();
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

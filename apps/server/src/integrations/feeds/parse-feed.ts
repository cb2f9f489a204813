import { parseFeed, type AtomFeed, type JsonFeed, type RssFeed } from 'feedsmith';
import { convert } from 'html-to-text';

/**
 * Turns a feed document (JSON Feed 1.0/1.1, RSS 2.0, Atom; RDF/RSS 1.0 too) into items with
 * the spec's Feed item fields (§3). Everything that reaches the browser is checked here:
 * HTML becomes plain text, links and images must be http(s), titles and excerpts are capped.
 */

export type NormalisedItem = {
  /** The item's own id (JSON Feed id, RSS guid, Atom id), when it has one. */
  guid: string | null;
  /** The link without utm_* parameters or fragment: the second dedupe key. */
  canonicalUrl: string;
  url: string;
  title: string;
  imageUrl: string | null;
  publishedAt: Date | null;
  contentText: string;
  authors: string[];
};

export type ParseOptions = {
  /** Where the document came from; relative links and images resolve against it. */
  baseUrl: string;
  /** Sample feeds may name images served by GEM itself, as root-relative paths. */
  localImages?: boolean;
  /** Items read from one document at most. */
  maxItems?: number;
};

/** The document is not a feed GEM can read (malformed, or another format). */
export class FeedParseError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'FeedParseError';
  }
}

export const EXCERPT_MAX = 600;
const TITLE_MAX = 300;
const ID_MAX = 1000;
const URL_MAX = 2000;
const AUTHORS_MAX = 10;
const DEFAULT_MAX_ITEMS = 500;

// Only our own sample images, never an arbitrary path on GEM.
const LOCAL_IMAGE = /^\/images\/feed-samples\/[a-z0-9-]+\.(svg|png|jpg|webp)$/;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Collapses whitespace; strips control characters. */
function tidy(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '').replace(/\s+/g, ' ').trim();
}

/** Plain text of an HTML fragment: no tags, no images, no link targets, entities decoded. */
export function htmlToText(html: string): string {
  return tidy(
    convert(html, {
      wordwrap: false,
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
    }),
  );
}

/** Cut at a word boundary with an ellipsis. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}

const looksLikeHtml = (s: string) => /<[a-z!/][^>]*>|&[#a-z0-9]+;/i.test(s);

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

/** The first <img src> of an HTML fragment. */
function firstImageIn(html: string | undefined): string | undefined {
  if (!html) return undefined;
  const match = /<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s>]+))/i.exec(html);
  const src = match?.[1] ?? match?.[2] ?? match?.[3];
  return src?.replace(/&amp;/g, '&');
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

/** "jane@example.com (Jane Doe)" → "Jane Doe"; a bare e-mail address is not a name. */
function rssAuthorName(person: RssFeed.Person | undefined): string | undefined {
  const raw = person?.name ?? '';
  const inParens = /\(([^)]+)\)/.exec(raw)?.[1];
  const name = inParens ?? raw;
  return /^\S+@\S+$/.test(name.trim()) ? undefined : name;
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
  const authors = (item.authors ?? []).map(rssAuthorName).filter(Boolean);
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
  const guid = draft.guid ? tidy(draft.guid).slice(0, ID_MAX) || null : null;
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
  const fromXml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1];
  const label = (fromHeader ?? fromXml ?? 'utf-8').toLowerCase();
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

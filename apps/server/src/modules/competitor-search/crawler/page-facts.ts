import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { plausibleDate } from './plausible-date';

/**
 * What the crawler takes from an HTML page it fetched: its title, description, published date,
 * canonical URL, robots directives, main text (Mozilla's Readability over a linkedom DOM) and
 * links. Pure functions over text: they run on the page parser's worker thread
 * (page-parser.ts), within a time budget. Sitemaps are read as they arrive (sitemaps.ts).
 */

export type PageFacts = {
  title: string;
  description: string;
  /** ISO 8601: article:published_time and the like, else JSON-LD datePublished. */
  publishedAt: string | null;
  /** <link rel=canonical>, absolute; not yet checked against the site. */
  canonical: string | null;
  /** <meta name=robots> (or GEM's own agent) says noindex / none. */
  noindex: boolean;
  /** ... says nofollow / none: its links are not followed. */
  nofollow: boolean;
  bodyText: string;
  /** Absolute http(s) links, without fragment, at most MAX_LINKS. */
  links: string[];
  /** RSS, Atom and JSON Feed documents the page names (<link rel=alternate>). */
  feeds: string[];
};

export const MAX_LINKS = 1000;
const BODY_TEXT_MAX = 50_000;
/**
 * Readability is given only documents of at most this many elements nested at most this deep:
 * its time grows steeply with nesting (2,000 nested <div>s take it a minute). Others are read
 * by the plain text walk below, which is linear.
 */
const MAX_ELEMENTS = 30_000;
const MAX_DEPTH = 256;
const JSON_LD_MAX = 200_000;
const FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/feed+json',
  'application/json',
]);

/** The agent-specific <meta name> GEM answers to, besides "robots". */
const META_AGENT = 'gem-crawler';

// Elements after which text does not run on: their text is separated from the next.
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'iframe',
  'nav',
  'header',
  'footer',
  'form',
]);

// The server compiles without the DOM library: the little of linkedom's DOM used here, by shape.
type DomNode = {
  nodeType: number;
  nodeValue: string | null;
  textContent: string | null;
  localName?: string;
  childNodes: ArrayLike<DomNode>;
};
type DomElement = DomNode & {
  localName: string;
  children: ArrayLike<DomElement> & Iterable<DomElement>;
  getAttribute(name: string): string | null;
};
type DomDocument = {
  title: string;
  body: DomElement | null;
  documentElement: DomElement;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement>;
};

/** Text of a subtree, block elements apart, walked without recursion (no stack to overflow). */
function textOf(
  root: DomNode,
  max: number,
  skip: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template']),
): string {
  const parts: string[] = [];
  let length = 0;
  const stack: (DomNode | '\n')[] = [root];
  while (stack.length > 0 && length < max) {
    const node = stack.pop()!;
    if (node === '\n') {
      parts.push('\n');
      continue;
    }
    if (node.nodeType === 3) {
      const text = node.nodeValue ?? '';
      parts.push(text);
      length += text.length;
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const name = node.localName?.toLowerCase() ?? '';
    if (skip.has(name)) continue;
    const block = BLOCKS.has(name);
    if (block) stack.push('\n');
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    if (block) stack.push('\n');
  }
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n')
    .slice(0, max);
}

/** Whether the tree is small and shallow enough for Readability; walked without recursion. */
function readabilityCanTake(root: DomNode): boolean {
  const stack: [DomNode, number][] = [[root, 0]];
  let elements = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node.nodeType !== 1) continue;
    elements += 1;
    if (elements > MAX_ELEMENTS || depth > MAX_DEPTH) return false;
    const children = node.childNodes;
    for (let i = 0; i < children.length; i++) stack.push([children[i]!, depth + 1]);
  }
  return true;
}

const attr = (el: DomElement | null | undefined, name: string) => el?.getAttribute(name)?.trim() ?? '';

function absolute(href: string, base: string): string | null {
  if (!href || href.length > 2000) return null;
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

const DATE_METAS = [
  'meta[property="article:published_time"]',
  'meta[name="article:published_time"]',
  'meta[itemprop="datePublished"]',
  'meta[name="date"]',
  'meta[name="pubdate"]',
  'meta[name="publish-date"]',
  'meta[name="dc.date"]',
  'meta[name="DC.date.issued"]',
];

/** The first datePublished in the page's JSON-LD (objects, arrays, @graph), breadth first. */
function jsonLdDate(document: DomDocument): string | null {
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    const text = script.textContent ?? '';
    if (text.length > JSON_LD_MAX) continue;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      continue;
    }
    const queue: unknown[] = [data];
    for (let seen = 0; queue.length > 0 && seen < 1000; seen++) {
      const value = queue.shift();
      if (Array.isArray(value)) queue.push(...value.slice(0, 100));
      else if (value && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        const date = plausibleDate(record.datePublished);
        if (date) return date;
        if (record['@graph']) queue.push(record['@graph']);
        if (record.mainEntity) queue.push(record.mainEntity);
      }
    }
  }
  return null;
}

/** The directives of <meta name=robots> and <meta name=gem-crawler>, lower case. */
function metaRobots(document: DomDocument): Set<string> {
  const directives = new Set<string>();
  for (const meta of document.querySelectorAll('meta[name]')) {
    const name = attr(meta, 'name').toLowerCase();
    if (name !== 'robots' && name !== META_AGENT) continue;
    for (const d of attr(meta, 'content').toLowerCase().split(',')) directives.add(d.trim());
  }
  return directives;
}

export function extractPage(html: string, url: string, now = Date.now()): PageFacts {
  const document = parseHTML(html).document as unknown as DomDocument;
  const robots = metaRobots(document);
  const meta = (selector: string) => attr(document.querySelector(selector), 'content');

  const links: string[] = [];
  const seen = new Set<string>();
  for (const a of document.querySelectorAll('a[href]')) {
    if (links.length >= MAX_LINKS) break;
    if (attr(a, 'rel').toLowerCase().split(/\s+/).includes('nofollow')) continue;
    const link = absolute(attr(a, 'href'), url);
    if (link && !seen.has(link)) {
      seen.add(link);
      links.push(link);
    }
  }
  const feeds: string[] = [];
  for (const link of document.querySelectorAll('link[rel~="alternate"][href]')) {
    const type = attr(link, 'type').toLowerCase();
    const href = FEED_TYPES.has(type) ? absolute(attr(link, 'href'), url) : null;
    if (href && feeds.length < 10) feeds.push(href);
  }
  const canonicalHref = attr(document.querySelector('link[rel~="canonical"][href]'), 'href');
  let publishedAt: string | null = null;
  for (const selector of DATE_METAS) {
    publishedAt = plausibleDate(meta(selector), now);
    if (publishedAt) break;
  }
  publishedAt ??= jsonLdDate(document);
  const title = meta('meta[property="og:title"]') || (document.title ?? '').trim();
  const description = meta('meta[name="description"]') || meta('meta[property="og:description"]');

  // Readability rewrites the document, so it comes last.
  let bodyText = '';
  let readable: ReturnType<Readability<DomNode>['parse']> = null;
  try {
    if (readabilityCanTake(document.documentElement))
      readable = new Readability<DomNode>(document as never, {
        maxElemsToParse: MAX_ELEMENTS,
        serializer: (node) => node as unknown as DomNode,
      }).parse();
  } catch {
    // Too many elements for Readability: the page's own text is read below.
  }
  if (readable?.content) bodyText = textOf(readable.content, BODY_TEXT_MAX);
  if (!bodyText) {
    const root = document.querySelector('main') ?? document.querySelector('article') ?? document.body;
    if (root) bodyText = textOf(root, BODY_TEXT_MAX, SKIPPED);
  }
  return {
    title: title || (readable?.title ?? '').trim(),
    description: description || (readable?.excerpt ?? '').trim(),
    publishedAt: publishedAt ?? plausibleDate(readable?.publishedTime, now),
    canonical: absolute(canonicalHref, url),
    noindex: robots.has('noindex') || robots.has('none'),
    nofollow: robots.has('nofollow') || robots.has('none'),
    bodyText,
    links,
    feeds,
  };
}

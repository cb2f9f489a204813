import { finished } from 'node:stream/promises';
import { createGunzip, type Gunzip } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { plausibleDate } from './plausible-date';

/**
 * Reading a site's sitemaps (issue 25): each document is parsed as its bytes arrive, by
 * htmlparser2's tokenizer (linear; the one linkedom uses), and each entry is handed on as soon as
 * it ends, so nothing of a 20 MB sitemap is held but the chunk being read and the entry being
 * built. That is also why it runs on the server's thread and not the page parser's worker: there
 * is no DOM to build, and each network chunk (at most 64 KiB) takes a fraction of a millisecond.
 *
 * Which documents are read: those robots.txt names (else the usual places) in their order, then
 * the sitemaps their indexes list: under the site's path first, then newest lastmod first. A
 * sitemap is skipped when the round's candidates are full and nothing dated at most its
 * lastmod could rank above the worst of them (candidates.ts, couldTake): an index's lastmod is
 * when that sitemap last changed, so none of its entries is newer.
 */

/** The sitemap protocol's own limit on a document's entries: GEM reads no further. */
export const MAX_SITEMAP_ENTRIES = 50_000;
/** Sitemap documents (indexes included) read per competitor and round. */
export const MAX_SITEMAPS = 50;
/** A sitemap is urlset > url > loc (depth 3), with extensions a few deeper; more is hostile. */
const MAX_DEPTH = 16;
/** Longer is no URL GEM keeps (crawl-urls.ts reads at most 2,000 characters). */
const LOC_MAX = 2048;
const LASTMOD_MAX = 64;

export type SitemapKind = 'urlset' | 'sitemapindex';
export type SitemapEntry = { loc: string; lastmod: Date | null };

/** Why a sitemap could not be read; the message is for people. */
export class SitemapError extends Error {
  override name = 'SitemapError';
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

/**
 * One document's reader: `write` takes the bytes as they arrive and answers false once it wants
 * no more (the root ended, or MAX_SITEMAP_ENTRIES read); `end` finishes. A .xml.gz file comes as
 * gzip bytes rather than Content-Encoding: it is unpacked here, with the same cap after unpacking.
 */
function sitemapReader(options: {
  maxBytes: number;
  now: number;
  onEntry: (kind: SitemapKind, entry: SitemapEntry) => void;
}) {
  let depth = 0;
  let kind: SitemapKind | undefined;
  let field: 'loc' | 'lastmod' | undefined;
  let loc = '';
  let lastmod = '';
  let entries = 0;
  let done = false;
  const parser = new Parser(
    {
      onopentag(name) {
        depth += 1;
        if (depth > MAX_DEPTH) throw new SitemapError('the sitemap nests deeper than GEM reads');
        if (done) return;
        const local = localName(name);
        if (depth === 1) {
          if (local !== 'urlset' && local !== 'sitemapindex') throw new SitemapError('not a sitemap');
          kind = local;
        } else if (depth === 2) {
          loc = '';
          lastmod = '';
        } else if (depth === 3 && (local === 'loc' || local === 'lastmod')) {
          field = local;
          if (local === 'loc') loc = '';
          else lastmod = '';
        }
      },
      ontext(text) {
        if (field === 'loc' && loc.length <= LOC_MAX) loc += text;
        else if (field === 'lastmod' && lastmod.length <= LASTMOD_MAX) lastmod += text;
      },
      onclosetag() {
        if (depth === 3) field = undefined;
        else if (depth === 2 && kind && !done) {
          const where = loc.trim();
          if (where) {
            const date = plausibleDate(lastmod, options.now);
            options.onEntry(kind, { loc: where, lastmod: date ? new Date(date) : null });
            entries += 1;
            if (entries >= MAX_SITEMAP_ENTRIES) done = true;
          }
        } else if (depth === 1) done = true;
        depth -= 1;
      },
    },
    { xmlMode: true },
  );
  // Sitemaps are UTF-8 (the protocol says so); a URL in one is ASCII anyway.
  const text = new TextDecoder('utf-8');
  const parse = (bytes: Buffer) => {
    if (!done) parser.write(text.decode(bytes, { stream: true }));
  };

  let head: Buffer | undefined = Buffer.alloc(0);
  let gunzip: Gunzip | undefined;
  let unpacked = 0;
  let failure: unknown;
  const stopWith = (err: unknown) => {
    failure ??= err;
    gunzip?.destroy();
  };

  /** The first bytes say whether the document is gzipped. */
  function begin(bytes: Buffer) {
    head = undefined;
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return parse(bytes);
    gunzip = createGunzip();
    gunzip.on('data', (out: Buffer) => {
      unpacked += out.length;
      if (unpacked > options.maxBytes)
        return stopWith(new SitemapError('the gzipped sitemap is larger than GEM reads'));
      try {
        parse(out);
      } catch (err) {
        stopWith(err);
      }
      if (done) gunzip?.destroy();
    });
    gunzip.on('error', () => {
      if (!done) stopWith(new SitemapError('the gzipped sitemap is damaged'));
    });
    gunzip.write(bytes);
  }

  return {
    write(chunk: Buffer): boolean {
      if (failure) throw failure;
      if (done) return false;
      if (head) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= 2) begin(head);
      } else if (gunzip) gunzip.write(chunk);
      else parse(chunk);
      return !done;
    },
    async end(): Promise<void> {
      if (head) begin(head);
      if (gunzip) {
        if (!gunzip.destroyed) gunzip.end();
        // A stopped stream (the cap, the entries read) ends early: that is not a failure.
        await finished(gunzip).catch(() => undefined);
      }
      if (failure) throw failure;
      if (!done) {
        parser.write(text.decode());
        parser.end();
      }
      if (!kind) throw new SitemapError('not a sitemap');
    },
    abandon() {
      gunzip?.destroy();
    },
  };
}

/** GETs a sitemap, handing its body to `onData` as it arrives; false when it is not there (404). */
export type FetchSitemap = (url: string, onData: (chunk: Buffer) => boolean) => Promise<boolean>;

export type ReadSitemapsOptions = {
  /** The sitemaps robots.txt names on the site's origin, else the usual places. */
  roots: readonly string[];
  origin: string;
  /** The competitor's site URL: an index's sitemaps under its path are read first. */
  site: string;
  maxBytes: number;
  now: number;
  fetch: FetchSitemap;
  /** robots.txt. */
  allows: (url: string) => boolean;
  /** Whether a sitemap whose entries are dated at most `lastmod` (null: unknown) could add a page. */
  couldTake: (lastmod: Date | null) => boolean;
  onPage: (entry: SitemapEntry) => void;
  /** A sitemap that could not be read; throwing stops the reading. */
  onError: (url: string, err: unknown) => void;
  signal: AbortSignal;
};

type Pending = { url: string; lastmod: Date | null; root: boolean; underSite: boolean; seq: number };

/** The next sitemap first: the roots in their order, then under the site's path, newest, found first. */
const before = (a: Pending, b: Pending) =>
  Number(b.root) - Number(a.root) ||
  Number(b.underSite) - Number(a.underSite) ||
  (b.lastmod?.getTime() ?? -Infinity) - (a.lastmod?.getTime() ?? -Infinity) ||
  a.seq - b.seq;

export async function readSitemaps(options: ReadSitemapsOptions): Promise<void> {
  const sitePath = new URL(options.site).pathname;
  let seq = 0;
  let pending: Pending[] = options.roots.map((url) => ({
    url,
    lastmod: null,
    root: true,
    underSite: true,
    seq: seq++,
  }));
  const seen = new Set<string>();
  let read = 0;
  const onEntry = (kind: SitemapKind, entry: SitemapEntry) => {
    if (kind === 'urlset') return options.onPage(entry);
    if (!URL.canParse(entry.loc)) return;
    const url = new URL(entry.loc);
    if (url.origin !== options.origin) return;
    pending.push({
      url: entry.loc,
      lastmod: entry.lastmod,
      root: false,
      underSite: url.pathname.startsWith(sitePath),
      seq: seq++,
    });
    // An index may list 50,000 sitemaps; only the best of those GEM may still read are kept.
    if (pending.length > 2 * MAX_SITEMAPS) pending = pending.sort(before).slice(0, MAX_SITEMAPS - read);
  };

  while (read < MAX_SITEMAPS && !options.signal.aborted) {
    const next = pending.sort(before).shift();
    if (!next) break;
    if (seen.has(next.url)) continue;
    seen.add(next.url);
    if (!options.allows(next.url) || !options.couldTake(next.lastmod)) continue;
    read += 1;
    const reader = sitemapReader({ maxBytes: options.maxBytes, now: options.now, onEntry });
    try {
      if (await options.fetch(next.url, (chunk) => reader.write(chunk))) await reader.end();
    } catch (err) {
      reader.abandon();
      options.onError(next.url, err);
    }
  }
}

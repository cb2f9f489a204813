import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  canonicalUrl,
  decodeBody,
  EXCERPT_MAX,
  firstImageIn,
  HTML_TAGS_MAX,
  looksLikeHtml,
  parseFeedDocument,
  rssAuthorName,
  shorten,
} from './parse-feed';
import { charactersRead } from '../../../test/text-work';
import { FeedParseError, type NormalisedItem } from './parsed-feed';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const parse = (name: string, baseUrl = 'https://news.example/feed.json') =>
  parseFeedDocument(fixture(name), { baseUrl });
const byGuid = (items: NormalisedItem[], guid: string) => {
  const item = items.find((i) => i.guid === guid);
  if (!item) throw new Error(`no item ${guid}`);
  return item;
};

describe('parsing JSON Feed 1.1', () => {
  const items = parse('json-feed-1.1.json');

  it('normalises an item to the spec fields, with the HTML reduced to text', () => {
    const item = byGuid(items, 'jf11-1');
    expect(item).toEqual({
      guid: 'jf11-1',
      url: 'https://www.news.example/2026/02/rates?utm_source=feed&utm_medium=rss&page=2#comments',
      canonicalUrl: 'https://www.news.example/2026/02/rates?page=2',
      title: 'Central bank holds rates',
      imageUrl: 'https://cdn.news.example/rates.jpg',
      publishedAt: new Date('2026-02-20T08:30:00Z'),
      contentText: 'The council kept rates unchanged & signalled patience.',
      authors: ['Anna Nowak', 'Jan Kowalski'],
    });
  });

  it('resolves relative links and images against the feed address, and falls back to date_modified', () => {
    const item = byGuid(items, 'jf11-2');
    expect(item.url).toBe('https://news.example/2026/02/relative-link');
    expect(item.imageUrl).toBe('https://news.example/img/relative.png');
    expect(item.publishedAt).toEqual(new Date('2026-02-19T08:00:00Z'));
    expect(item.contentText).toBe('Plain text with extra spaces.');
  });

  it('keeps items that miss a date, an image or authors', () => {
    const item = byGuid(items, 'jf11-3');
    expect(item.publishedAt).toBeNull();
    expect(item.imageUrl).toBeNull();
    expect(item.authors).toEqual([]);
  });

  it('leaves out an item whose link is not http(s), and drops an image that is not', () => {
    expect(items.find((i) => i.guid === 'jf11-4')).toBeUndefined();
    const item = byGuid(items, 'jf11-5');
    expect(item.imageUrl).toBeNull();
    expect(item.publishedAt).toBeNull();
  });

  it('takes an image attachment, and the start of the text when there is no title', () => {
    const item = byGuid(items, 'jf11-6');
    expect(item.imageUrl).toBe('https://cdn.news.example/attached.png');
    expect(item.title).toBe('An item without a title takes the start of its text as the title.');
  });
});

describe('parsing JSON Feed 1.0', () => {
  it('reads the single author, the summary and the banner image', () => {
    const [first, second] = parse('json-feed-1.0.json');
    expect(first).toMatchObject({
      title: 'JSON Feed 1.0 uses a single author',
      authors: ['Maria Zielińska'],
      contentText: 'A summary when there is no content.',
      imageUrl: 'https://blog.example/banner.jpg',
      publishedAt: new Date('2026-01-10T12:00:00Z'),
    });
    expect(second).toMatchObject({ contentText: 'Second.', authors: [], imageUrl: null });
  });
});

describe('parsing RSS 2.0', () => {
  const items = parse('rss-2.0.xml', 'https://daily.example/rss');

  it('reads guid, link, pubDate, dc:creator, media:content and the description as text', () => {
    expect(byGuid(items, 'rss-1')).toEqual({
      guid: 'rss-1',
      url: 'https://daily.example/exporters?utm_campaign=x',
      canonicalUrl: 'https://daily.example/exporters',
      title: 'Exporters & the złoty',
      imageUrl: 'https://daily.example/img/exporters.jpg',
      publishedAt: new Date('2026-02-16T06:45:00Z'),
      contentText: 'Exporters gain as the złoty weakens.',
      authors: ['Piotr Wiśniewski'],
    });
  });

  it('takes the name from "e-mail (Name)" and an image from the description HTML', () => {
    const item = byGuid(items, 'https://daily.example/author');
    expect(item.authors).toEqual(['Ewa Lis']);
    expect(item.imageUrl).toBe('https://daily.example/img/inline.jpg');
    expect(item.contentText).toBe('Text with an image.');
  });

  it('reads an image enclosure, and an item without a date', () => {
    const item = byGuid(items, 'rss-3');
    expect(item.imageUrl).toBe('https://daily.example/img/enclosure.png');
    expect(item.publishedAt).toBeNull();
  });

  it('uses a permalink guid as the link, and leaves out an item with no link', () => {
    expect(byGuid(items, 'https://daily.example/permalink-only').url).toBe(
      'https://daily.example/permalink-only',
    );
    expect(items.find((i) => i.guid === 'rss-5')).toBeUndefined();
    expect(items).toHaveLength(4);
  });
});

describe('parsing Atom', () => {
  const items = parse('atom.xml', 'https://tech.example/atom');

  it('reads the alternate link, published date, every author, an html title and summary', () => {
    expect(byGuid(items, 'urn:fixture:atom:1')).toEqual({
      guid: 'urn:fixture:atom:1',
      url: 'https://tech.example/cloud-banks',
      canonicalUrl: 'https://tech.example/cloud-banks',
      title: 'Cloud migration in banks',
      imageUrl: 'https://tech.example/img/cloud.jpg',
      publishedAt: new Date('2026-02-10T08:00:00Z'),
      contentText: 'Banks move card systems first.',
      authors: ['Olga Nowicka', 'Marek Lis'],
    });
  });

  it('falls back to <updated>, and finds enclosure and inline images', () => {
    const updatedOnly = byGuid(items, 'urn:fixture:atom:2');
    expect(updatedOnly.publishedAt).toEqual(new Date('2026-02-09T08:00:00Z'));
    expect(updatedOnly.imageUrl).toBe('https://tech.example/img/enclosure.png');
    expect(updatedOnly.contentText).toBe('Plain text content.');
    expect(byGuid(items, 'urn:fixture:atom:3').imageUrl).toBe('https://tech.example/img/inline.jpg');
  });
});

describe('documents GEM cannot read', () => {
  it.each(['malformed.xml', 'not-a-feed.html'])('%s is a FeedParseError, not a crash', (name) => {
    expect(() => parse(name)).toThrow(FeedParseError);
  });

  it('an empty body, JSON that is not a feed, and binary noise are FeedParseErrors', () => {
    for (const body of ['', '{"hello":"world"}', '[1,2,3]', '\u0000\u0001\u0002garbage']) {
      expect(() => parseFeedDocument(body, { baseUrl: 'https://x.example/' })).toThrow(FeedParseError);
    }
  });
});

describe('normalising', () => {
  it('removes every utm_* parameter and the fragment, and keeps other parameters', () => {
    expect(canonicalUrl('https://a.example/p?UTM_Source=x&id=7&utm_term=y#top')).toBe(
      'https://a.example/p?id=7',
    );
    expect(canonicalUrl('https://a.example/p?utm_source=x')).toBe('https://a.example/p');
  });

  it('keeps the first of two items with the same id or the same URL once tracking is removed', () => {
    const doc = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 't',
      items: [
        { id: 'a', url: 'https://x.example/1?utm_source=one', title: 'First' },
        { id: 'b', url: 'https://x.example/1?utm_source=two', title: 'Same URL' },
        { id: 'a', url: 'https://x.example/2', title: 'Same id' },
        { id: 'c', url: 'https://x.example/3', title: 'Third' },
      ],
    });
    const items = parseFeedDocument(doc, { baseUrl: 'https://x.example/' });
    expect(items.map((i) => i.title)).toEqual(['First', 'Third']);
  });

  it('caps the excerpt at a word boundary', () => {
    const long = 'word '.repeat(400);
    const doc = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 't',
      items: [{ id: '1', url: 'https://x.example/1', title: 'Long', content_text: long }],
    });
    const [item] = parseFeedDocument(doc, { baseUrl: 'https://x.example/' });
    expect(item!.contentText.length).toBeLessThanOrEqual(EXCERPT_MAX);
    expect(item!.contentText.endsWith('word…')).toBe(true);
    expect(shorten('short', 10)).toBe('short');
  });

  it("accepts GEM's own sample image paths only for sample feeds, and no other local path", () => {
    const doc = (image: string) =>
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 't',
        items: [{ id: '1', url: 'https://x.example/1', title: 'T', image }],
      });
    const sample = { baseUrl: 'gem-sample:x.json', localImages: true };
    expect(parseFeedDocument(doc('/images/feed-samples/chart.svg'), sample)[0]!.imageUrl).toBe(
      '/images/feed-samples/chart.svg',
    );
    expect(parseFeedDocument(doc('/api/markets'), sample)[0]!.imageUrl).toBeNull();
    expect(
      parseFeedDocument(doc('/images/feed-samples/chart.svg'), { baseUrl: 'https://x.example/' })[0]!
        .imageUrl,
    ).toBe('https://x.example/images/feed-samples/chart.svg');
  });

  it('decodes the charset the response or the XML declaration names', () => {
    const latin2 = Buffer.from([0x3c, 0x61, 0x3e, 0xa3, 0xf3, 0x64, 0xbc, 0x3c, 0x2f, 0x61, 0x3e]); // <a>Łódź</a>
    expect(decodeBody(latin2, 'application/xml; charset=ISO-8859-2')).toBe('<a>Łódź</a>');
    const declared = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="windows-1250"?>'),
      Buffer.from([0x8c, 0x6c, 0xb9, 0x73, 0x6b]), // Śląsk
    ]);
    expect(decodeBody(declared, 'text/xml')).toContain('Śląsk');
    expect(decodeBody(Buffer.from('zażółć'), undefined)).toBe('zażółć');
  });
});

const X = { baseUrl: 'https://x.example/' };
/** A JSON Feed 1.1 document of one item, with a link. */
const jsonDoc = (item: Record<string, unknown>) =>
  JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 't',
    items: [{ id: '1', url: 'https://x.example/1', ...item }],
  });
/** An RSS 2.0 document of one item, with a link. */
const rssDoc = (itemXml: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>t</title><link>https://x.example/</link><description>t</description><item><link>https://x.example/1</link>${itemXml}</item></channel></rss>`;
const only = (body: string) => {
  const [item, ...rest] = parseFeedDocument(body, X);
  expect(rest).toEqual([]);
  return item!;
};

describe('hostile text', () => {
  // Counted, not timed (test/text-work.ts): four times the text is about four times the
  // characters read when the reading is linear, sixteen times when it is quadratic. The times
  // are measured in bench/hostile-text.mjs.
  const linear = (read: (n: number) => number, n: number) => {
    const once = read(n);
    expect(once, 'the count sees the text read').toBeGreaterThanOrEqual(n);
    expect(read(4 * n)).toBeLessThan(5 * once);
  };

  it.each([
    ['a content_text of "<a"s', (n: number) => jsonDoc({ title: 'T', content_text: '<a'.repeat(n) })],
    ['a content_html of "<img"s', (n: number) => jsonDoc({ title: 'T', content_html: '<img'.repeat(n) })],
    ['a title of "<a"s', (n: number) => jsonDoc({ title: '<a'.repeat(n) })],
    ['an author of "<a"s', (n: number) => jsonDoc({ title: 'T', authors: [{ name: '<a'.repeat(n) }] })],
  ])('reads %s with work linear in its length', (_what, doc) => {
    linear((n) => charactersRead(() => parseFeedDocument(doc(n), X)), 10_000);
  });

  // feedsmith has read the author element by then (in the parser's worker, within its budget).
  it.each([
    ['"("s', (n: number) => '('.repeat(n)],
    ['"@"s', (n: number) => `${'@'.repeat(n)} !`],
  ])('takes the name out of an RSS author of %s with work linear in its length', (_what, author) => {
    linear((n) => charactersRead(() => rssAuthorName(author(n))), 20_000);
  });

  it('reads the same markup as before: tags, character references, the first image', () => {
    expect(looksLikeHtml('<p>x</p>')).toBe(true);
    expect(looksLikeHtml('x </b>')).toBe(true);
    expect(looksLikeHtml('<!-- x -->')).toBe(true);
    expect(looksLikeHtml('AT&amp;T')).toBe(true);
    expect(looksLikeHtml('it&#8217;s')).toBe(true);
    expect(looksLikeHtml('1 < 2 > 0')).toBe(false);
    expect(looksLikeHtml('<a<a<a')).toBe(false);
    expect(looksLikeHtml('Q&A; R&D')).toBe(true);
    expect(looksLikeHtml('Q&A, R&D')).toBe(false);
    expect(firstImageIn('<p>x</p><IMG alt="a > b" SRC=\'/a.jpg?x=1&amp;y=2\'>')).toBe('/a.jpg?x=1&y=2');
    expect(firstImageIn('<img data-src="/lazy.jpg" src = "/b.jpg"/>')).toBe('/b.jpg');
    expect(firstImageIn('<img src="" src=/c.png>')).toBe('/c.png');
    expect(firstImageIn('<img/src=/d.png>')).toBe('/d.png');
    // Not an image: another element, a comment, an attribute's value, a tag left open at the end.
    expect(firstImageIn('<imgx src="/no.jpg"><!-- <img src="/no.jpg"> -->')).toBeUndefined();
    expect(firstImageIn('<a title=\'<img src="/no.jpg">\'>x</a>')).toBeUndefined();
    expect(firstImageIn('<img alt="x src=/no.jpg')).toBeUndefined();
    expect(firstImageIn('<img<img<img')).toBeUndefined();
    expect(rssAuthorName('jane@example.com (Jane Doe)')).toBe('Jane Doe');
    expect(rssAuthorName('() (Jane Doe) (x)')).toBe('Jane Doe');
    expect(rssAuthorName('((Jane)')).toBe('(Jane');
    expect(rssAuthorName(' a@b@c ')).toBeUndefined();
    expect(rssAuthorName('@jane')).toBe('@jane');
    expect(rssAuthorName('Jane @ Home')).toBe('Jane @ Home');
  });

  it('reads HTML nested thousands deep without overflowing the stack', () => {
    const item = only(jsonDoc({ title: 'T', content_html: `<p>Intro.</p>${'<b>'.repeat(20_000)}deep` }));
    expect(item.contentText).toBe('Intro.');
  });

  it('reads a long fragment only as far as the excerpt needs, and finds text after much empty markup', () => {
    const paragraphs = Array.from({ length: 5000 }, (_, i) => `Paragraph ${i} says something.`);
    const article = only(
      jsonDoc({
        title: 'T',
        content_html: paragraphs.map((p) => `<p>${p.replace('says', '<em>says</em>')}</p>`).join('\n'),
      }),
    );
    expect(article.contentText).toBe(shorten(paragraphs.join(' '), EXCERPT_MAX));
    const late = only(
      jsonDoc({ title: 'T', content_html: `${'<span></span>'.repeat(1500)}<p>Late text.</p>` }),
    );
    expect(late.contentText).toBe('Late text.');
    // Past the last prefix read, text is not looked for.
    const tooLate = only(
      jsonDoc({ title: 'T', content_html: `${'<i></i>'.repeat(HTML_TAGS_MAX)}<p>Too late.</p>` }),
    );
    expect(tooLate.contentText).toBe('');
  });
});

describe('bidirectional formatting characters', () => {
  const controls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  it('are removed from titles, excerpts and authors, in text and in HTML', () => {
    const item = only(
      jsonDoc({
        title: 'Invoice \u202Egpj.exe\u202C',
        content_html:
          '<p>Open &#x202E;fdp.scr&#x202C; and \u2067this\u2069 \u202Athat\u202C \u202Bnow\u202C.</p>',
        authors: [{ name: '\u200FJane\u200E \u202DDoe\u202C' }, { name: '\u2066\u2068\u2069' }],
      }),
    );
    expect(item).toMatchObject({
      title: 'Invoice gpj.exe',
      contentText: 'Open fdp.scr and this that now.',
      authors: ['Jane Doe'],
    });
    const rss = only(rssDoc('<title>&#x202E;txt.exe</title><description>A \u061Cb \u202Ec</description>'));
    expect(rss).toMatchObject({ title: 'txt.exe', contentText: 'A b c' });
    expect(JSON.stringify([item, rss])).not.toMatch(controls);
  });

  it('leave right-to-left text as it is', () => {
    const item = only(
      jsonDoc({
        title: 'שלום עולם: חדשות',
        content_text: 'مرحبا بالعالم، هذا خبر.',
        authors: [{ name: 'דנה לוי' }],
      }),
    );
    expect(item).toMatchObject({
      title: 'שלום עולם: חדשות',
      contentText: 'مرحبا بالعالم، هذا خبر.',
      authors: ['דנה לוי'],
    });
  });
});

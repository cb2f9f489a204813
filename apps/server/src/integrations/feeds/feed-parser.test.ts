import { readFileSync } from 'node:fs';
import { repeatedJsonFeed } from '@gem/test-servers/feed-server';
import { afterAll, describe, expect, it } from 'vitest';
import { charactersReadWhile } from '../../../test/text-work';
import { createFeedParser, TOO_SLOW } from './feed-parser';
import { FEED_MAX_BYTES } from './feed-reader';
import { parseFeedDocument } from './parse-feed';
import { FeedParseError } from './parsed-feed';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const X = { baseUrl: 'https://x.example/' };
/** A document as a feed host sends it: UTF-8 bytes. */
const raw = (text: string) => ({ body: Buffer.from(text) });

/** A JSON Feed of one item whose `field` repeats `unit` up to the 5 MiB document cap. */
const hostile = (field: 'content_text' | 'content_html', unit: string) =>
  repeatedJsonFeed(field, unit, FEED_MAX_BYTES);

const parser = createFeedParser();
afterAll(() => parser.close());

describe('the feed parser', () => {
  it('gives, from its worker thread, what parseFeedDocument gives', async () => {
    for (const [name, baseUrl] of [
      ['json-feed-1.1.json', 'https://news.example/feed.json'],
      ['json-feed-1.0.json', 'https://blog.example/feed.json'],
      ['rss-2.0.xml', 'https://daily.example/rss'],
      ['atom.xml', 'https://tech.example/atom'],
    ] as const) {
      const body = fixture(name);
      expect(await parser.parse(raw(body), { baseUrl }), name).toEqual(parseFeedDocument(body, { baseUrl }));
    }
    const sample = { baseUrl: 'gem-sample:x.json', localImages: true };
    const local = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 't',
      items: [{ id: '1', url: 'https://x.example/1', title: 'T', image: '/images/feed-samples/a.svg' }],
    });
    expect((await parser.parse(raw(local), sample))[0]!.imageUrl).toBe('/images/feed-samples/a.svg');
  });

  it('decodes the document in the charset its Content-Type or XML declaration names', async () => {
    // <title>Łódź</title> in ISO-8859-2.
    const latin2 = (head: string) =>
      Buffer.concat([
        Buffer.from(`${head}<rss version="2.0"><channel><title>t</title><item><title>`),
        Buffer.from([0xa3, 0xf3, 0x64, 0xbc]),
        Buffer.from('</title><link>https://x.example/1</link></item></channel></rss>'),
      ]);
    const [byHeader] = await parser.parse(
      { body: latin2(''), contentType: 'application/rss+xml; charset=ISO-8859-2' },
      X,
    );
    const [byDeclaration] = await parser.parse(
      { body: latin2('<?xml version="1.0" encoding="iso-8859-2"?>') },
      X,
    );
    expect([byHeader!.title, byDeclaration!.title]).toEqual(['Łódź', 'Łódź']);
  });

  it('refuses a document that is not a feed with a FeedParseError', async () => {
    const err = await parser.parse(raw(fixture('malformed.xml')), X).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FeedParseError);
    expect((err as Error).message).toMatch(/^not a feed GEM can read/);
  });

  it.each([
    ['a content_text of "<a" repeated', hostile('content_text', '<a')],
    ['a content_html of "<img" repeated', hostile('content_html', '<img')],
  ])('parses a 5 MiB document of %s off the event loop', async (_what, body) => {
    expect(body.length).toBeGreaterThan(FEED_MAX_BYTES - 100);
    expect(body.length).toBeLessThanOrEqual(FEED_MAX_BYTES);
    await parser.parse(raw(fixture('atom.xml')), X); // the worker is up
    const { result, characters } = await charactersReadWhile(() => parser.parse(raw(body), X));
    const [item] = result;
    expect(item).toMatchObject({ guid: 'repeated-1', title: 'Repeated item' });
    expect(item!.contentText.length).toBeLessThanOrEqual(600);
    // Counted, not timed (test/text-work.ts): this thread read almost none of the document, which
    // the worker read; parsing it here would read all of it, several times. How long the event
    // loop waits meanwhile is measured in bench/hostile-text.mjs.
    expect(characters).toBeLessThan(body.length / 10);
  });

  it('stops a document that takes longer than the time budget, and says so', async () => {
    const impatient = createFeedParser({ budgetMs: 1 });
    try {
      const err = await impatient.parse(raw(hostile('content_text', '<a')), X).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FeedParseError);
      expect((err as Error).message).toBe(`${TOO_SLOW} (more than 0.001 s)`);
    } finally {
      await impatient.close();
    }
  });

  it('stops the worker when a parse is cancelled, and parses the next document on a new one', async () => {
    await parser.parse(raw(fixture('atom.xml')), X); // the worker is up: the next document goes straight to it
    const cancel = new AbortController();
    const cancelled = parser.parse(raw(hostile('content_html', '<p>x</p>')), X, cancel.signal);
    cancel.abort(new Error('shutting down'));
    await expect(cancelled).rejects.toThrow('shutting down');
    const waiting = new AbortController();
    waiting.abort(new Error('never started'));
    await expect(parser.parse(raw(fixture('atom.xml')), X, waiting.signal)).rejects.toThrow('never started');
    expect(await parser.parse(raw(fixture('atom.xml')), X)).toHaveLength(3);
  });

  it('refuses documents once closed', async () => {
    const closing = createFeedParser();
    const queued = expect(closing.parse(raw(fixture('atom.xml')), X)).rejects.toThrow(
      'the feed parser is closed',
    );
    await closing.close();
    await queued;
    await expect(closing.parse(raw(fixture('atom.xml')), X)).rejects.toThrow('the feed parser is closed');
  });
});

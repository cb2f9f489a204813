import { jsonFeed, startFeedServer, type FeedServer } from '@gem/test-servers/feed-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/test-config';
import { HttpFetchError } from '../http/safe-fetch';
import { createFeedReader, FEED_ACCEPT, FEED_USER_AGENT } from './feed-reader';

const { samplesDir } = testConfig().feeds;
let feeds: FeedServer;
beforeAll(async () => {
  feeds = await startFeedServer();
});
afterAll(async () => {
  await feeds?.close();
});

describe('the feed reader', () => {
  it('asks a feed host for the feed formats, as the GEM feed reader, with its validators', async () => {
    feeds.set('/reader.json', {
      body: jsonFeed('R', []),
      contentType: 'application/feed+json',
      etag: '"r1"',
    });
    const reader = createFeedReader({ samplesDir, allowPrivateHosts: true });
    const doc = await reader.read(feeds.url('/reader.json'), {});
    expect(doc).toMatchObject({
      status: 'ok',
      etag: '"r1"',
      sample: false,
      baseUrl: feeds.url('/reader.json'),
    });
    expect(await reader.read(feeds.url('/reader.json'), { etag: '"r1"' })).toEqual({
      status: 'not-modified',
    });
    const [first, second] = feeds.requests('/reader.json');
    expect(first!.headers).toMatchObject({ 'user-agent': FEED_USER_AGENT, accept: FEED_ACCEPT });
    expect(FEED_USER_AGENT).toMatch(/^GEM-feed-reader\/1\.0/);
    expect(second!.headers['if-none-match']).toBe('"r1"');
  });

  it('refuses private hosts unless they are allowed', async () => {
    const reader = createFeedReader({ samplesDir, allowPrivateHosts: false });
    const err = await reader.read(feeds.url('/reader.json'), {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpFetchError);
    expect((err as HttpFetchError).reason).toBe('blocked_address');
  });

  it('reads a bundled sample with no network', async () => {
    const reader = createFeedReader({ samplesDir, allowPrivateHosts: false });
    const doc = await reader.read('gem-sample:esg.json', {});
    expect(doc).toMatchObject({ status: 'ok', sample: true, baseUrl: 'gem-sample:esg.json' });
  });
});

import { gzipSync } from 'node:zlib';
import { startFeedServer, type FeedServer } from '@gem/test-servers/feed-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localOrPublicAddresses, publicAddressesOnly, type AddressPolicy } from './address-policy';
import { HttpFetchError, safeFetch, type FetchOptions } from './safe-fetch';

let feeds: FeedServer;
beforeAll(async () => {
  feeds = await startFeedServer();
});
afterAll(async () => {
  await feeds?.close();
});

// The test host runs on 127.0.0.1: this policy lets GEM reach it and nothing else private.
const onlyTheTestHost: AddressPolicy = (a) => a === '127.0.0.1' || publicAddressesOnly(a);
const options = (overrides: Partial<FetchOptions> = {}): FetchOptions => ({
  isPermittedAddress: onlyTheTestHost,
  timeoutMs: 2_000,
  maxBytes: 64 * 1024,
  userAgent: 'GEM-test/1.0',
  ...overrides,
});

async function failure(promise: Promise<unknown>): Promise<HttpFetchError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof HttpFetchError) return err;
    throw err;
  }
  throw new Error('expected the fetch to fail');
}

describe('the address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.5.5.5', 'loopback'],
    ['::1', 'IPv6 loopback'],
    ['10.0.0.1', 'RFC 1918'],
    ['172.16.5.4', 'RFC 1918'],
    ['172.31.255.255', 'RFC 1918'],
    ['192.168.1.10', 'RFC 1918'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['fe80::1', 'IPv6 link-local'],
    ['fd00::1', 'IPv6 unique local'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['not-an-ip', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(publicAddressesOnly(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(publicAddressesOnly(address)).toBe(true);
  });
});

describe('fetching a document', () => {
  it('reads a document with its validators', async () => {
    feeds.set('/plain.xml', { body: '<rss/>', etag: '"v1"', lastModified: 'Mon, 02 Mar 2026 08:00:00 GMT' });
    const result = await safeFetch(feeds.url('/plain.xml'), options());
    expect(result).toMatchObject({
      status: 'ok',
      etag: '"v1"',
      lastModified: 'Mon, 02 Mar 2026 08:00:00 GMT',
    });
    if (result.status === 'ok') expect(result.body.toString()).toBe('<rss/>');
  });

  it('sends If-None-Match and If-Modified-Since, and reports a 304 as not modified', async () => {
    feeds.set('/conditional.xml', {
      body: '<rss/>',
      etag: '"v2"',
      lastModified: 'Sun, 01 Mar 2026 08:00:00 GMT',
    });
    const byEtag = await safeFetch(feeds.url('/conditional.xml'), options({ validators: { etag: '"v2"' } }));
    expect(byEtag).toEqual({ status: 'not-modified' });
    const byDate = await safeFetch(
      feeds.url('/conditional.xml'),
      options({ validators: { lastModified: 'Sun, 01 Mar 2026 08:00:00 GMT' } }),
    );
    expect(byDate).toEqual({ status: 'not-modified' });
    const sent = feeds.requests('/conditional.xml');
    expect(sent[0]!.headers['if-none-match']).toBe('"v2"');
    expect(sent[1]!.headers['if-modified-since']).toBe('Sun, 01 Mar 2026 08:00:00 GMT');
  });

  it('sends the user agent and Accept header its caller names, and asks for compressed bodies', async () => {
    feeds.set('/headers.xml', { body: '<rss/>' });
    await safeFetch(
      feeds.url('/headers.xml'),
      options({ userAgent: 'GEM-crawler/1.0', accept: 'text/html' }),
    );
    await safeFetch(feeds.url('/headers.xml'), options());
    const [named, plain] = feeds.requests('/headers.xml');
    expect(named!.headers).toMatchObject({
      'user-agent': 'GEM-crawler/1.0',
      accept: 'text/html',
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(plain!.headers).toMatchObject({ 'user-agent': 'GEM-test/1.0', accept: '*/*' });
    expect(plain!.headers['if-none-match']).toBeUndefined();
  });

  it('gives up on a host that never answers, at the deadline', async () => {
    feeds.set('/hang.xml', { hang: true });
    const arrived = feeds.waitForRequest('/hang.xml');
    // Only the deadline's timer is faked: the sockets run for real, the clock moves when told.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const outcome = failure(safeFetch(feeds.url('/hang.xml'), options({ timeoutMs: 300 })));
      await arrived;
      await vi.advanceTimersByTimeAsync(300);
      const err = await outcome;
      expect(err.reason).toBe('timeout');
      expect(err.message).toBe('no complete answer within 300 ms');
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops when its caller cancels', async () => {
    feeds.set('/hang-cancel.xml', { hang: true });
    const arrived = feeds.waitForRequest('/hang-cancel.xml');
    const cancel = new AbortController();
    const outcome = failure(
      safeFetch(feeds.url('/hang-cancel.xml'), options({ timeoutMs: 60_000, signal: cancel.signal })),
    );
    await arrived;
    cancel.abort();
    const err = await outcome;
    expect(err.reason).toBe('timeout');
    expect(err.message).toBe('the request was cancelled');
  });

  it('stops reading a body past the size cap', async () => {
    feeds.set('/huge.xml', { body: '<rss>', padBytes: 10 * 1024 * 1024 });
    const err = await failure(safeFetch(feeds.url('/huge.xml'), options({ maxBytes: 256 * 1024 })));
    expect(err.reason).toBe('too_large');
  });

  it('counts the size cap after decompression', async () => {
    const server = await startFeedServer();
    try {
      // The feed server sends bodies as they are; a gzip body with its header exercises unzip.
      const zipped = gzipSync(Buffer.from(' '.repeat(1024 * 1024)));
      const { createServer } = await import('node:http');
      const bomb = createServer((_req, res) => {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/xml' }).end(zipped);
      });
      await new Promise<void>((r) => bomb.listen(0, '127.0.0.1', r));
      const port = (bomb.address() as { port: number }).port;
      const err = await failure(safeFetch(`http://127.0.0.1:${port}/`, options({ maxBytes: 100 * 1024 })));
      expect(err.reason).toBe('too_large');
      bomb.close();
    } finally {
      await server.close();
    }
  });

  it('hands the body over as it arrives to onData, which may stop reading; the size cap still holds', async () => {
    feeds.set('/stream.xml', { body: '<urlset>', padBytes: 4 * 1024 * 1024 });
    let seen = 0;
    const result = await safeFetch(
      feeds.url('/stream.xml'),
      options({
        maxBytes: 8 * 1024 * 1024,
        onData: (chunk) => {
          seen += chunk.length;
          return seen < 100 * 1024;
        },
      }),
    );
    expect(result).toMatchObject({ status: 'ok', body: Buffer.alloc(0) });
    expect(seen).toBeGreaterThanOrEqual(100 * 1024);
    expect(seen).toBeLessThan(4 * 1024 * 1024);

    const err = await failure(
      safeFetch(feeds.url('/stream.xml'), options({ maxBytes: 256 * 1024, onData: () => true })),
    );
    expect(err.reason).toBe('too_large');

    // What onData throws ends the fetch as it is.
    const refusal = new Error('not a sitemap');
    await expect(
      safeFetch(
        feeds.url('/stream.xml'),
        options({
          onData: () => {
            throw refusal;
          },
        }),
      ),
    ).rejects.toBe(refusal);
  });

  it('reports an error status', async () => {
    feeds.set('/error.xml', { status: 500, body: 'oops' });
    const err = await failure(safeFetch(feeds.url('/error.xml'), options()));
    expect(err.reason).toBe('http_status');
    expect(err.message).toContain('HTTP 500');
  });

  it('follows a redirect to an allowed address', async () => {
    feeds.set('/moved.xml', { redirectTo: '/plain.xml' });
    const result = await safeFetch(feeds.url('/moved.xml'), options());
    expect(result).toMatchObject({ status: 'ok', finalUrl: feeds.url('/plain.xml') });
  });

  it('reports the status of an error answer, and hands over the headers of a good one', async () => {
    feeds.set('/busy.xml', { status: 503, body: 'later' });
    const err = await failure(safeFetch(feeds.url('/busy.xml'), options()));
    expect(err).toMatchObject({ reason: 'http_status', httpStatus: 503, retryAfter: undefined });
    feeds.set('/typed.xml', { body: '<rss/>', contentType: 'application/rss+xml' });
    const result = await safeFetch(feeds.url('/typed.xml'), options());
    expect(result.status === 'ok' && result.headers['content-type']).toBe('application/rss+xml');
  });

  it('asks beforeRequest before every hop, and stops when it throws', async () => {
    feeds.set('/hop-1.xml', { redirectTo: '/hop-2.xml' });
    feeds.set('/hop-2.xml', { redirectTo: '/plain.xml' });
    const hops: string[] = [];
    await safeFetch(
      feeds.url('/hop-1.xml'),
      options({ beforeRequest: async (url, hop) => void hops.push(`${hop} ${url.pathname}`) }),
    );
    expect(hops).toEqual(['0 /hop-1.xml', '1 /hop-2.xml', '2 /plain.xml']);

    const refused = new Error('not this one');
    const before = feeds.requests('/hop-2.xml').length;
    await expect(
      safeFetch(
        feeds.url('/hop-1.xml'),
        options({
          beforeRequest: async (url) => {
            if (url.pathname === '/hop-2.xml') throw refused;
          },
        }),
      ),
    ).rejects.toBe(refused);
    expect(feeds.requests('/hop-2.xml')).toHaveLength(before);
  });

  it('checks an IP literal against the policy before beforeRequest sees it', async () => {
    feeds.set('/to-metadata', { redirectTo: 'http://169.254.169.254/latest/meta-data/' });
    const seen: string[] = [];
    const err = await failure(
      safeFetch(
        feeds.url('/to-metadata'),
        options({ beforeRequest: async (url) => void seen.push(url.host) }),
      ),
    );
    expect(err.reason).toBe('blocked_address');
    expect(seen).toEqual([new URL(feeds.origin).host]);
  });
});

describe('refusing addresses GEM may not connect to (SSRF)', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:9/feed'],
    ['another loopback address', 'http://127.0.0.2:9/feed'],
    ['IPv6 loopback', 'http://[::1]:9/feed'],
    ['the cloud metadata service', 'http://169.254.169.254/latest/meta-data/'],
    ['RFC 1918, 10/8', 'http://10.0.0.1/feed'],
    ['RFC 1918, 172.16/12', 'http://172.16.5.4/feed'],
    ['RFC 1918, 192.168/16', 'https://192.168.1.10/feed'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]:9/feed'],
    ['IPv4-mapped IPv6, hex form', 'http://[::ffff:7f00:1]:9/feed'],
    ['IPv6 link-local', 'http://[fe80::1]/feed'],
    ['IPv4-compatible IPv6 loopback', 'http://[::7f00:1]:9/feed'],
    ['IPv4-compatible IPv6, dotted', 'http://[::127.0.0.1]:9/feed'],
    ['IPv4-compatible cloud metadata service', 'http://[::a9fe:a9fe]/latest/meta-data/'],
    ['NAT64 of loopback', 'http://[64:ff9b::7f00:1]:9/feed'],
    ['6to4 of loopback', 'http://[2002:7f00:1::1]:9/feed'],
    ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/feed'],
    ['IPv6 documentation', 'http://[2001:db8::1]/feed'],
  ])('refuses %s before connecting', async (_what, url) => {
    const err = await failure(safeFetch(url, options({ isPermittedAddress: publicAddressesOnly })));
    expect(err.reason).toBe('blocked_address');
  });

  it('checks the address a name resolves to when connecting (localhost → 127.0.0.1)', async () => {
    const port = new URL(feeds.origin).port;
    const err = await failure(
      safeFetch(`http://localhost:${port}/plain.xml`, options({ isPermittedAddress: publicAddressesOnly })),
    );
    expect(err.reason).toBe('blocked_address');
    expect(err.message).toMatch(/resolves to (127\.0\.0\.1|::1)/);
    expect(feeds.requests().some((r) => r.headers.host === `localhost:${port}`)).toBe(false);
  });

  it.each([
    ['loopback', 'http://127.0.0.2:9/feed'],
    ['the cloud metadata service', 'http://169.254.169.254/latest/meta-data/iam'],
    ['a private address', 'http://192.168.0.1/feed'],
    ['an IPv4-mapped address', 'http://[::ffff:127.0.0.1]:9/feed'],
    ['a link-local address', 'http://169.254.1.1/feed'],
    ['an IPv4-compatible address', 'http://[::7f00:1]:9/feed'],
    ['an IPv4-compatible metadata address', 'http://[::a9fe:a9fe]/latest/meta-data/'],
    ['a NAT64 address', 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/'],
  ])('refuses a redirect to %s', async (_what, target) => {
    const path = `/redirect-${Buffer.from(target).toString('hex').slice(0, 16)}`;
    feeds.set(path, { redirectTo: target });
    const err = await failure(safeFetch(feeds.url(path), options()));
    expect(err.reason).toBe('blocked_address');
  });

  it('refuses non-http schemes and redirect loops', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://files.example/feed', 'gopher://x.example/']) {
      expect((await failure(safeFetch(url, options()))).reason).toBe('bad_url');
    }
    feeds.set('/to-file', { redirectTo: 'file:///etc/passwd' });
    expect((await failure(safeFetch(feeds.url('/to-file'), options()))).reason).toBe('bad_url');
    feeds.set('/loop', { redirectTo: '/loop' });
    expect((await failure(safeFetch(feeds.url('/loop'), options()))).reason).toBe('too_many_redirects');
  });

  it('allows private hosts when the policy allows any address (GEM_FEEDS_ALLOW_PRIVATE_HOSTS)', async () => {
    const port = new URL(feeds.origin).port;
    const result = await safeFetch(
      `http://localhost:${port}/plain.xml`,
      options({ isPermittedAddress: localOrPublicAddresses }),
    );
    expect(result.status).toBe('ok');
  });

  it.each([
    ['the cloud metadata service', 'http://169.254.169.254/latest/meta-data/'],
    ['it, IPv4-mapped', 'http://[::ffff:169.254.169.254]/latest/meta-data/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ["AWS's IPv6 metadata service", 'http://[fd00:ec2::254]/latest/meta-data/'],
  ])('refuses %s with private hosts allowed, also as a redirect from a local host', async (_what, url) => {
    const direct = await failure(safeFetch(url, options({ isPermittedAddress: localOrPublicAddresses })));
    expect(direct.reason).toBe('blocked_address');
    feeds.set('/to-metadata', { redirectTo: url });
    const port = new URL(feeds.origin).port;
    const redirected = await failure(
      safeFetch(
        `http://localhost:${port}/to-metadata`,
        options({ isPermittedAddress: localOrPublicAddresses }),
      ),
    );
    expect(redirected.reason).toBe('blocked_address');
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configProblems } from '../../test/test-config';
import { parseConfig } from './index';

const dir = mkdtempSync(path.join(tmpdir(), 'gem-competitors-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const competitorsFile = (name: string, content: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
};

describe('competitor search settings', () => {
  it("reads the spec's six competitors by default, crawling off, GEM's own index", () => {
    const { competitors, search } = parseConfig({});
    expect(competitors.file).toMatch(/apps\/server\/competitor-samples\/competitors\.json$/);
    expect(competitors.list.map((c) => c.key)).toEqual([
      'deloitte',
      'ey',
      'pwc',
      'strategyand',
      'mckinsey',
      'kpmg',
    ]);
    for (const c of competitors.list) expect(c.site).toMatch(/^https:\/\/[^/]+\/.*pl.*\/$/);
    expect(competitors).toMatchObject({
      crawl: false,
      crawlMinutes: 360,
      crawlDelayMs: 1000,
      allowPrivateHosts: false,
      maxPagesPerRound: 300,
    });
    expect(search).toEqual({ provider: 'index', brave: null });
  });

  it('reads a competitors file and the crawl settings, ending each site with /', () => {
    const file = competitorsFile(
      'good.json',
      JSON.stringify([
        { key: 'acme', name: ' Acme ', site: 'http://127.0.0.1:8080/pl' },
        { key: 'globex', name: 'Globex', site: 'https://globex.example/pl/pl/' },
      ]),
    );
    const { competitors } = parseConfig({
      GEM_COMPETITORS_FILE: file,
      GEM_COMPETITORS_CRAWL: 'true',
      GEM_COMPETITORS_CRAWL_MINUTES: '60',
      GEM_COMPETITORS_CRAWL_DELAY_MS: '0',
      GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS: 'true',
      GEM_COMPETITORS_MAX_PAGES_PER_ROUND: '20',
    });
    expect(competitors).toEqual({
      file,
      list: [
        { key: 'acme', name: 'Acme', site: 'http://127.0.0.1:8080/pl/' },
        { key: 'globex', name: 'Globex', site: 'https://globex.example/pl/pl/' },
      ],
      crawl: true,
      crawlMinutes: 60,
      crawlDelayMs: 0,
      allowPrivateHosts: true,
      maxPagesPerRound: 20,
    });
  });

  it('names the file and what is wrong with it', () => {
    const missing = path.join(dir, 'missing.json');
    expect(configProblems({ GEM_COMPETITORS_FILE: missing })).toEqual([
      `GEM_COMPETITORS_FILE (${missing}): the file does not exist`,
    ]);
    const broken = competitorsFile('broken.json', '[{ "key": ');
    expect(configProblems({ GEM_COMPETITORS_FILE: broken })[0]).toMatch(
      /^GEM_COMPETITORS_FILE \(.*\): is not valid JSON/,
    );
    const object = competitorsFile('object.json', '{ "deloitte": "https://www.deloitte.com/pl/pl/" }');
    expect(configProblems({ GEM_COMPETITORS_FILE: object })).toEqual([
      `GEM_COMPETITORS_FILE (${object}): must be a JSON array of { "key", "name", "site" } objects, at least one`,
    ]);
  });

  it('lists every bad entry at once', () => {
    const file = competitorsFile(
      'bad.json',
      JSON.stringify([
        'deloitte',
        { key: 'Big Four', name: 'X', site: 'https://x.example/' },
        { key: 'ok', name: '', site: 'ftp://x.example/' },
        { key: 'ok2', name: 'Ok', site: 'https://user:pw@x.example/?a=1' },
        { key: 'dup', name: 'Dup', site: 'https://dup.example/pl/' },
        { key: 'dup', name: 'Dup again', site: 'https://dup.example/pl' },
      ]),
    );
    const at = (n: number) => `GEM_COMPETITORS_FILE (${file}): entry ${n}`;
    expect(configProblems({ GEM_COMPETITORS_FILE: file })).toEqual([
      `${at(1)} must be an object with "key", "name" and "site"`,
      `${at(2)}: "key" must be lower-case letters, digits and '-', e.g. "deloitte"`,
      `${at(3)}: "name" must be the competitor's name (1 to 100 characters)`,
      `${at(3)}: "site" must be an http(s) address of the site's path, with no user, query or fragment, e.g. "https://www.deloitte.com/pl/pl/"`,
      `${at(4)}: "site" must be an http(s) address of the site's path, with no user, query or fragment, e.g. "https://www.deloitte.com/pl/pl/"`,
      `${at(6)}: the key "dup" is listed twice`,
      `${at(6)}: the site https://dup.example/pl/ is listed twice`,
    ]);
  });

  it('refuses bad crawl values, each by name', () => {
    expect(
      configProblems({
        GEM_COMPETITORS_CRAWL: 'sometimes',
        GEM_COMPETITORS_CRAWL_MINUTES: '0',
        GEM_COMPETITORS_CRAWL_DELAY_MS: '-1',
        GEM_COMPETITORS_MAX_PAGES_PER_ROUND: 'many',
        GEM_SEARCH_PROVIDER: 'google',
      }).map((p) => p.split(':')[0]),
    ).toEqual([
      'GEM_COMPETITORS_CRAWL',
      'GEM_COMPETITORS_CRAWL_MINUTES',
      'GEM_COMPETITORS_CRAWL_DELAY_MS',
      'GEM_COMPETITORS_MAX_PAGES_PER_ROUND',
      'GEM_SEARCH_PROVIDER',
    ]);
  });

  it('uses the Brave Search API with its key, and asks for the key', () => {
    expect(parseConfig({ GEM_SEARCH_PROVIDER: 'brave', GEM_BRAVE_API_KEY: 'k' }).search).toEqual({
      provider: 'brave',
      brave: { apiKey: 'k', baseUrl: 'https://api.search.brave.com' },
    });
    expect(
      parseConfig({
        GEM_SEARCH_PROVIDER: 'brave',
        GEM_BRAVE_API_KEY: 'k',
        GEM_BRAVE_BASE_URL: 'http://127.0.0.1:9000/',
      }).search.brave?.baseUrl,
    ).toBe('http://127.0.0.1:9000');
    expect(configProblems({ GEM_SEARCH_PROVIDER: 'brave' })).toEqual([
      'GEM_BRAVE_API_KEY: is required with GEM_SEARCH_PROVIDER=brave',
    ]);
    expect(configProblems({ GEM_BRAVE_BASE_URL: 'api.search.brave.com' })).toEqual([
      'GEM_BRAVE_BASE_URL: must be an http:// or https:// URL',
    ]);
  });
});

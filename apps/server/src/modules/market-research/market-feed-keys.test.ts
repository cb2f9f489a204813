import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configProblems } from '../../../test/test-config';
import { parseConfig } from '../../config';
import { catalogueFeedKeys, checkMarketFeedKeys, unknownFeedKeyProblems } from './market-feed-keys';

const dir = mkdtempSync(path.join(tmpdir(), 'gem-feed-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const feedsFile = (name: string, entries: Record<string, unknown>) => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(entries));
  return file;
};

const problemsWithCheck = (env: Record<string, string>) => configProblems(env, [checkMarketFeedKeys]);

describe('the feeds file against the market catalogue', () => {
  it('knows every area and each sub-area as "area/sub-area"', () => {
    const keys = catalogueFeedKeys();
    expect(keys).toContain('technology');
    expect(keys).toContain('priority-clients');
    expect(keys).toContain('priority-clients/orlen');
    expect(keys).not.toContain('orlen');
  });

  it('names each key that is no market area, with the file', () => {
    expect(
      unknownFeedKeyProblems({
        file: '/etc/gem/feeds.json',
        sources: [
          { key: 'technology', url: 'https://example.com/tech.xml' },
          { key: 'sport', url: 'https://example.com/sport.xml' },
          { key: 'priority-clients/acme', url: 'https://example.com/acme.xml' },
        ],
      }),
    ).toEqual([
      'GEM_FEEDS_FILE (/etc/gem/feeds.json): "sport" is not a market area or "area/sub-area" of the catalogue',
      'GEM_FEEDS_FILE (/etc/gem/feeds.json): "priority-clients/acme" is not a market area or "area/sub-area" of the catalogue',
    ]);
  });

  it('passes the bundled sample feeds file', () => {
    const { feeds } = parseConfig({}, { checks: [checkMarketFeedKeys] });
    expect(feeds.sources.map((s) => s.key)).toContain('priority-clients/orlen');
  });

  it('lists unknown keys with every other problem, once handed to parseConfig', () => {
    const file = feedsFile('unknown.json', {
      $comment: 'ignored',
      technology: 'https://example.com/tech.xml',
      sport: 'https://example.com/sport.xml',
    });
    expect(problemsWithCheck({ GEM_FEEDS_FILE: file, GEM_OIDC_CLIENT_ID: 'x' })).toEqual([
      'GEM_OIDC_CLIENT_ID: is set but GEM_OIDC_ISSUER is not; set the issuer too, or unset GEM_OIDC_CLIENT_ID',
      `GEM_FEEDS_FILE (${file}): "sport" is not a market area or "area/sub-area" of the catalogue`,
    ]);
    // Config itself knows no catalogue: without the check the key is read like any other.
    expect(parseConfig({ GEM_FEEDS_FILE: file }).feeds.sources.map((s) => s.key)).toEqual([
      'technology',
      'sport',
    ]);
  });
});

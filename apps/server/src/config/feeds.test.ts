import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configProblems } from '../../test/test-config';
import { parseConfig } from './index';

const dir = mkdtempSync(path.join(tmpdir(), 'gem-feeds-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const feedsFile = (name: string, content: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
};

describe('Market Research feeds settings', () => {
  it('reads the bundled sample feeds file by default', () => {
    const { feeds } = parseConfig({});
    expect(feeds.file).toBe(path.join(feeds.samplesDir, 'feeds.json'));
    expect(feeds.samplesDir).toMatch(/apps\/server\/feed-samples$/);
    expect(feeds.sources).toContainEqual({ key: 'technology', url: 'gem-sample:technology.atom' });
    expect(feeds).toMatchObject({ refreshMinutes: 15, retentionDays: 90, allowPrivateHosts: false });
  });

  it('reads a feeds file of http(s) and sample URLs, skipping $ comments', () => {
    const file = feedsFile(
      'good.json',
      JSON.stringify({
        $comment: 'area -> URL',
        technology: ' https://example.com/tech.xml ',
        'priority-clients/orlen': 'gem-sample:client-orlen.atom',
      }),
    );
    const { feeds } = parseConfig({
      GEM_FEEDS_FILE: file,
      GEM_FEEDS_REFRESH_MINUTES: '5',
      GEM_FEEDS_RETENTION_DAYS: '30',
      GEM_FEEDS_ALLOW_PRIVATE_HOSTS: 'true',
    });
    expect(feeds).toMatchObject({
      file,
      sources: [
        { key: 'technology', url: 'https://example.com/tech.xml' },
        { key: 'priority-clients/orlen', url: 'gem-sample:client-orlen.atom' },
      ],
      refreshMinutes: 5,
      retentionDays: 30,
      allowPrivateHosts: true,
    });
  });

  it('names the file and what is wrong with it', () => {
    const missing = path.join(dir, 'missing.json');
    expect(configProblems({ GEM_FEEDS_FILE: missing })).toEqual([
      `GEM_FEEDS_FILE (${missing}): the file does not exist`,
    ]);
    const broken = feedsFile('broken.json', '{ "technology": ');
    expect(configProblems({ GEM_FEEDS_FILE: broken })[0]).toMatch(
      /^GEM_FEEDS_FILE \(.*\): is not valid JSON/,
    );
    const list = feedsFile('list.json', '["https://example.com/feed.xml"]');
    expect(configProblems({ GEM_FEEDS_FILE: list })).toEqual([
      `GEM_FEEDS_FILE (${list}): must be one JSON object of "area" or "area/sub-area" keys and feed URLs`,
    ]);
  });

  it('lists every bad entry at once', () => {
    const file = feedsFile(
      'bad.json',
      JSON.stringify({
        technology: 42,
        esg: 'gem-sample:nope.json',
        pharma: 'ftp://example.com/feed',
        leadership: 'https://user:secret@example.com/feed',
        pwc: 'https://example.com/pwc.json',
      }),
    );
    const where = `GEM_FEEDS_FILE (${file})`;
    expect(configProblems({ GEM_FEEDS_FILE: file })).toEqual([
      `${where}: "technology" must be a feed URL`,
      `${where}: "esg": gem-sample:nope.json is not one of the bundled sample feeds`,
      `${where}: "pharma": ftp://example.com/feed must be an http:// or https:// URL`,
      `${where}: "leadership": put no user name or password in a feed URL`,
    ]);
  });
});

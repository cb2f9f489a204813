import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without types
import { SERVER_ENV_DEFAULTS, SERVER_NODE_FLAGS, serverEnv } from '../../../scripts/server-runtime.mjs';

// The settings that only take effect when the server process starts are spelled out in
// package.json (npm start) and the Containerfile; scripts/server-runtime.mjs is their one list.
const root = path.resolve(import.meta.dirname, '../../..');
const flags = SERVER_NODE_FLAGS as string[];
const envDefaults = SERVER_ENV_DEFAULTS as Record<string, string>;

describe('how the server process is started', () => {
  it('npm start passes the same Node flags and environment defaults', () => {
    const start = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        scripts: { start: string };
      }
    ).scripts.start;
    const words = start.split(/\s+/);
    expect(words.slice(words.indexOf('node') + 1, -1)).toEqual(flags);
    expect(words.at(-1)).toBe('scripts/start.mjs');
    for (const [name, value] of Object.entries(envDefaults)) {
      // A value already in the environment wins, as serverEnv() does.
      expect(start).toContain(`${name}=\${${name}:-${value}}`);
    }
  });

  it('the container passes them too', () => {
    const containerfile = readFileSync(path.join(root, 'Containerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(containerfile)?.[1];
    expect(JSON.parse(cmd ?? '[]')).toEqual(['node', ...flags, 'apps/server/dist/server.js']);
    for (const [name, value] of Object.entries(envDefaults)) {
      expect(containerfile).toMatch(new RegExp(`^\\s+${name}=${value} \\\\$`, 'm'));
    }
  });

  it('keeps what the environment already says', () => {
    expect(serverEnv({ MALLOC_ARENA_MAX: '4', PORT: '1' })).toEqual({ MALLOC_ARENA_MAX: '4', PORT: '1' });
    expect(serverEnv({})).toEqual(envDefaults);
  });
});

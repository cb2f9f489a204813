import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without types
import * as buildState from '../../../scripts/build-state.mjs';

// `npm start` builds when it must, and only a production build (scripts/start.mjs).
const { BUILD_INPUTS, BUILD_OUTPUTS, BUILD_STAMP, buildEnv } = buildState as {
  BUILD_INPUTS: string[];
  BUILD_OUTPUTS: string[];
  BUILD_STAMP: string;
  buildEnv: (env: object) => object;
};
const inputs = BUILD_INPUTS;
const outputs = BUILD_OUTPUTS;
const needed = (buildState as { buildNeeded: (root: string) => string | null }).buildNeeded;

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A repository whose every input is a file from `inputsAt` and whose build is from `builtAt` (s). */
function repository({ inputsAt = 1_000, builtAt = 2_000, nodeEnv = 'production' as string | null } = {}) {
  root = mkdtempSync(path.join(tmpdir(), 'gem-build-state-'));
  const file = (p: string, at: number, text = '') => {
    mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    writeFileSync(path.join(root, p), text);
    utimesSync(path.join(root, p), at, at);
  };
  for (const p of inputs) file(path.extname(p) ? p : `${p}/index.ts`, inputsAt);
  for (const p of outputs) file(p, builtAt);
  if (nodeEnv) file(BUILD_STAMP, builtAt, JSON.stringify({ nodeEnv }));
  return { file };
}

describe('whether npm start builds', () => {
  it('does not build again when the production build is newer than every input', () => {
    repository();
    expect(needed(root)).toBeNull();
  });

  it('builds when there is no build', () => {
    repository();
    rmSync(path.join(root, outputs[1]!));
    expect(needed(root)).toBe('there is no build yet');
  });

  it.each([
    'apps/web/vite.config.ts',
    'package-lock.json',
    'apps/web/scripts/prerender.mjs',
    'apps/server/build.mjs',
  ])('builds when %s changed after the build', (changed) => {
    const { file } = repository();
    file(changed, 3_000);
    expect(needed(root)).toBe('its sources changed since the last build');
  });

  it('builds again over a development build, or one that did not say how it was made', () => {
    repository({ nodeEnv: 'development' });
    expect(needed(root)).toBe('the last build was a development build');
    rmSync(path.join(root, BUILD_STAMP));
    expect(needed(root)).toBe('the last build did not say how it was made');
  });

  it('always builds for production, whatever NODE_ENV the shell has', () => {
    for (const NODE_ENV of ['development', 'test', undefined]) {
      expect(buildEnv({ NODE_ENV, PATH: '/bin' })).toEqual({
        NODE_ENV: 'production',
        PATH: '/bin',
      });
    }
  });
});

// Whether `npm start` must build before it runs the server, and how it builds. The build's
// inputs are the sources and everything that decides how they are built (the build configs and
// scripts, the packages' manifests and the lockfile); the server's build writes a stamp saying
// which NODE_ENV the web app was built under, and a build that was not a production one is
// built again. Tested in apps/server/test/build-state.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Paths, from the repository's root, whose changes call for a new build. */
export const BUILD_INPUTS = [
  'package-lock.json',
  'packages/contracts/src',
  'packages/contracts/package.json',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/package.json',
  'apps/web/vite.config.ts',
  'apps/web/scripts',
  'apps/server/src',
  'apps/server/package.json',
  'apps/server/build.mjs',
];

/** The files a build writes last; the older of them is when the build was made. */
export const BUILD_OUTPUTS = ['apps/web/dist/index.html', 'apps/server/dist/server.js'];

/** Written by apps/server/build.mjs, the build's last step. */
export const BUILD_STAMP = 'apps/server/dist/build-stamp.json';

/** Newest modification time (ms) under the given paths; 0 when none exist. */
function newest(paths) {
  let latest = 0;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      const entries = readdirSync(p).filter((name) => name !== 'node_modules' && name !== 'dist');
      latest = Math.max(latest, newest(entries.map((name) => path.join(p, name))));
    } else {
      latest = Math.max(latest, stat.mtimeMs);
    }
  }
  return latest;
}

/** Why a build is needed (a sentence for the console), or null when the last one stands. */
export function buildNeeded(root) {
  const at = (p) => path.join(root, p);
  if (!BUILD_OUTPUTS.every((o) => existsSync(at(o)))) return 'there is no build yet';
  const builtAt = Math.min(...BUILD_OUTPUTS.map((o) => statSync(at(o)).mtimeMs));
  if (newest(BUILD_INPUTS.map(at)) > builtAt) return 'its sources changed since the last build';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(at(BUILD_STAMP), 'utf8'));
  } catch {
    return 'the last build did not say how it was made';
  }
  if (stamp.nodeEnv !== 'production') return `the last build was a ${stamp.nodeEnv} build`;
  return null;
}

/**
 * The environment `npm start` builds in: always a production build (a shell's NODE_ENV=development
 * would otherwise give Vite's development build of React, half again as large and slower).
 */
export function buildEnv(env) {
  return { ...env, NODE_ENV: 'production' };
}

import { chromium } from 'playwright-core';

/**
 * Debian's Chromium and the flags this machine needs, for the browser tests (e2e/, the cluster
 * specs) and the benchmarks (bench/*.mjs, run by node, hence plain JavaScript; the types are in
 * chromium.d.mts).
 */

export const chromiumPath = '/usr/bin/chromium';

/** Headless, no sandbox (a container) and no GPU; no network but loopback, so no traffic of its own. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Starts that Chromium through playwright-core. */
export function launchChromium() {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

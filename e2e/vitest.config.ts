import { defineConfig } from 'vitest/config';

// End-to-end: the built app (npm run build) on a free port with a fresh data folder,
// driven by playwright-core in Debian's Chromium.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

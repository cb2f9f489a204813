import { defineConfig } from 'vitest/config';

// Several GEM instances behind nginx (issue 15): each file starts its own cluster with
// `npm run cluster -- up` (a private PostgreSQL in a temporary folder, the built app, Debian's
// nginx) and stops it. Run `npm run build` first.
export default defineConfig({
  test: {
    name: 'cluster',
    root: import.meta.dirname,
    include: ['**/*.cluster.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

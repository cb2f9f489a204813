import { defineProject } from 'vitest/config';

// Integration tests run on PGlite; the root config adds a second run of this project
// against the PostgreSQL server when TEST_DATABASE_URL is set.
export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/fail-on-console-error.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

import { defineConfig } from 'vitest/config';

// Each workspace has its own vitest config; this file lists them. The server's
// integration tests run on PGlite, and once more on PostgreSQL when TEST_DATABASE_URL is set.
const postgresUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    projects: [
      'packages/contracts',
      'apps/web',
      'apps/server',
      ...(postgresUrl
        ? [
            {
              extends: './apps/server/vitest.config.ts',
              root: './apps/server',
              test: { name: 'server-postgres', env: { TEST_DATABASE_URL: postgresUrl } },
            },
          ]
        : []),
    ],
  },
});

import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * What the server's main thread loads when it starts: a dependency imported statically anywhere
 * in src/server.ts's graph is loaded, and held, by every GEM process. These are needed only in a
 * worker thread, with one CRM, or with one database, so they must be imported where they are
 * used (bench/memory.md: together about 15 MB of an idle server's memory).
 */
const NOT_AT_START: Record<string, 'imported later' | 'in a worker'> = {
  feedsmith: 'in a worker', // the feed parser's worker thread
  'html-to-text': 'in a worker',
  '@jsforce/jsforce-node': 'imported later', // the Salesforce CRM, on its first call
  pg: 'imported later', // PostgreSQL, when DATABASE_URL names one
  'drizzle-orm/node-postgres': 'imported later',
};

describe('the server bundle', () => {
  it('imports at start none of what only a worker, Salesforce or PostgreSQL needs', async () => {
    const root = path.resolve(import.meta.dirname, '..');
    const result = await build({
      entryPoints: [path.join(root, 'src/server.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      metafile: true,
      logLevel: 'silent',
      outdir: path.join(root, 'dist-test'),
      // As build.mjs: dependencies stay outside the bundle, workspace packages go in.
      plugins: [
        {
          name: 'external-dependencies',
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@gem/') ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
    });
    const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports);
    const atStart = new Set(
      imports.filter((i) => i.external && i.kind === 'import-statement').map((i) => i.path),
    );
    const later = new Set(
      imports.filter((i) => i.external && i.kind === 'dynamic-import').map((i) => i.path),
    );
    // The check can fail: these are what the server does load at start, and the others later.
    expect(atStart).toContain('fastify');
    expect(atStart).toContain('@electric-sql/pglite');
    for (const [name, where] of Object.entries(NOT_AT_START)) {
      expect(atStart, name).not.toContain(name);
      expect(later.has(name), name).toBe(where === 'imported later');
    }
  });
});

// Bundles the server into dist/server.js. Dependencies stay in node_modules; the
// workspace packages (@gem/*, TypeScript source) are bundled in.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: [
    'src/server.ts',
    'src/cli.ts',
    // The feed parser's worker thread: integrations/feeds/feed-parser.ts starts it from beside
    // the bundle, dist/feed-parser.worker.js.
    { in: 'src/integrations/feeds/feed-parser.worker.ts', out: 'feed-parser.worker' },
    // The competitor crawler's page parser, likewise beside the bundle.
    { in: 'src/modules/competitor-search/crawler/page-parser.worker.ts', out: 'page-parser.worker' },
    // The brand voice's inflection (a profile's terms expanded to their forms), likewise.
    { in: 'src/lib/brand-voice/inflection.worker.ts', out: 'inflection.worker' },
    // Its style check of long texts, likewise.
    { in: 'src/lib/brand-voice/style-check.worker.ts', out: 'style-check.worker' },
  ],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
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

// What the build was made under (the web app's build ran just before this one, in the same
// environment): `npm start` builds again when this is not a production build (scripts/build-state.mjs).
writeFileSync(
  'dist/build-stamp.json',
  `${JSON.stringify({ nodeEnv: process.env.NODE_ENV || 'production' })}\n`,
);

// Bundles the server into dist/server.js. Dependencies stay in node_modules; the
// workspace packages (@gem/*, TypeScript source) are bundled in.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server.ts', 'src/cli.ts'],
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

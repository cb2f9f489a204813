// `npm start`: builds the web app and the server when their output is missing or older
// than their sources, then runs the server in this process (so signals reach it directly).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const at = (...p) => path.join(root, ...p);

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

const outputs = [at('apps/web/dist/index.html'), at('apps/server/dist/server.js')];
const builtAt = outputs.every((o) => existsSync(o))
  ? Math.min(...outputs.map((o) => statSync(o).mtimeMs))
  : 0;
const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/server/src',
  'packages/contracts/src',
];
if (newest(sources.map((s) => at(s))) > builtAt) {
  console.log('GEM: building the web app and the server…');
  execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
}

await import(at('apps/server/dist/server.js'));

// `npm start`: builds the web app and the server (always a production build) when there is no
// build, or the last one is older than its inputs or was not a production build, then runs the
// server in this process (so signals reach it directly).
import { execSync } from 'node:child_process';
import path from 'node:path';
import { buildEnv, buildNeeded } from './build-state.mjs';

const root = path.resolve(import.meta.dirname, '..');

const why = buildNeeded(root);
if (why) {
  console.log(`GEM: building the web app and the server (${why})…`);
  execSync('npm run build --silent', { cwd: root, stdio: 'inherit', env: buildEnv(process.env) });
}

await import(path.join(root, 'apps/server/dist/server.js'));

// Works around an npm 11 bug (npm/cli#9846): when the registry cannot serve an optional
// platform package (here: the unrs-resolver bindings for other systems), `npm install`
// leaves it out of package-lock.json and `npm ci` then rejects that same lockfile. This adds
// the missing optional packages as plain entries, which `npm ci` accepts and skips.
// Runs after every `npm install` (root "postinstall"); changes nothing when complete.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const file = path.resolve(import.meta.dirname, '../package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages ?? {};
let added = 0;

for (const [location, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    // Node resolution: the package's own node_modules, then each parent's, up to the root.
    const candidates = [];
    for (let dir = location; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
      candidates.push(`${dir ? `${dir}/` : ''}node_modules/${name}`);
      if (!dir.includes('/node_modules/') || dir === '') break;
    }
    candidates.push(`node_modules/${name}`);
    if (candidates.some((c) => packages[c]) || !/^\d+\.\d+\.\d+/.test(spec)) continue;
    packages[`node_modules/${name}`] = { version: spec, dev: entry.dev, optional: true };
    added += 1;
  }
}

if (added > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
  );
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: added ${added} optional package(s) the registry does not serve`);
}

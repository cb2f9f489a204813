import { fileURLToPath } from 'node:url';

// From source this file is apps/server/src/config/app-dir.ts; in the bundle it is part of
// apps/server/dist/server.js (or cli.js). Either way the defaults below resolve in apps/server.
const appDirUrl = new URL(
  new URL('.', import.meta.url).pathname.endsWith('/src/config/') ? '../../' : '../',
  import.meta.url,
);

/** A path inside apps/server (or beside it, with ../). */
export const appPath = (relative: string) => fileURLToPath(new URL(relative, appDirUrl));

// How GEM's server process is started, wherever it is started: `npm start` (package.json), the
// container (Containerfile), the cluster (scripts/cluster.mjs) and the benchmarks. These are
// settings that only take effect when the process starts, so they cannot live in config/.
// package.json and the Containerfile spell them out; a test keeps them equal to these
// (apps/server/test/server-runtime.test.ts). Why each: bench/memory.md.

/**
 * V8's young generation at 4 MB a half instead of 16: a burst of requests no longer leaves up to
 * 24 MB more of it resident, for no measured cost per request.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'];

/**
 * glibc's malloc with at most two arenas instead of eight per core: the threads that compress,
 * hash and read files otherwise each keep an arena's freed memory resident.
 * Used where the environment does not set it already.
 */
export const SERVER_ENV_DEFAULTS = { MALLOC_ARENA_MAX: '2' };

/** The environment for a server process: the defaults under what `env` already says. */
export function serverEnv(env) {
  return { ...SERVER_ENV_DEFAULTS, ...env };
}

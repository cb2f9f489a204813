import { z } from 'zod';
import { appPath } from './app-dir';
import { booleanString, commaList, httpUrl, positiveInt } from './env-values';

/** The process itself: where it listens, its database and folders, logs, limits, and GEM's public origin. */

const defaultMigrationsDir = appPath('drizzle');
const defaultWebDistDir = appPath('../web/dist');

/** An origin (scheme, host, port) with no path, query or fragment. */
const publicOrigin = httpUrl
  .refine((v) => {
    const u = new URL(v);
    return (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash && !u.username;
  }, 'must be an origin only, like https://gem.example.com (no path, query or credentials)')
  .transform((v) => new URL(v).origin);

/**
 * GEM_TRUST_PROXY: false, the number of proxies in front of GEM, or their addresses. "true"
 * (trust every hop) is refused: the client could then choose its own address in
 * X-Forwarded-For and slip past the per-address sign-in throttle.
 */
const trustProxySetting = z.string().transform((raw, ctx): false | number | string[] => {
  const v = raw.trim().toLowerCase();
  if (['false', '0', 'no'].includes(v)) return false;
  if (/^[1-9]$/.test(v)) return Number(v);
  if (v === 'true' || v === 'yes') {
    ctx.addIssue({
      code: 'custom',
      message:
        'must be false, the number of proxies in front of GEM (e.g. 1), or their addresses (e.g. 10.0.0.0/8); true would let any client choose its own address',
    });
    return false;
  }
  const list = commaList(raw);
  const bad = list.filter((a) => !/^[0-9a-f.:]+(?:\/\d{1,3})?$/i.test(a));
  if (bad.length > 0) {
    ctx.addIssue({ code: 'custom', message: `not proxy addresses: ${bad.join(', ')}` });
    return false;
  }
  return list;
});

/** Prometheus's registered default for Node exporters' metrics (its port allocation list). */
export const defaultMetricsPort = 9464;

/** GEM_METRICS_PORT: a port, or off (no metrics server). */
const metricsPort = z.string().transform((raw, ctx): number | null => {
  const v = raw.trim().toLowerCase();
  if (['off', 'false', 'no', 'none'].includes(v)) return null;
  const port = /^\d{1,5}$/.test(v) ? Number(v) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    ctx.addIssue({ code: 'custom', message: 'must be a port (0–65535) or off' });
    return null;
  }
  return port;
});

export const serverEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  GEM_HOST: z.string().min(1).default('localhost'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  GEM_DATA_DIR: z.string().min(1).default('./data'),
  GEM_DB_POOL_MAX: positiveInt(200).default(10),
  GEM_MIGRATIONS_DIR: z.string().min(1).default(defaultMigrationsDir),
  GEM_WEB_DIST_DIR: z.string().min(1).default(defaultWebDistDir),
  GEM_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GEM_LOG_PRETTY: booleanString.optional(),
  GEM_BODY_LIMIT_BYTES: positiveInt(100 * 1024 * 1024).default(1024 * 1024),
  GEM_SHUTDOWN_TIMEOUT_MS: positiveInt(10 * 60 * 1000).default(10_000),
  GEM_TRUST_PROXY: trustProxySetting.default(false),
  GEM_PUBLIC_URL: publicOrigin.optional(),
  GEM_BRAND_CHECKER_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  GEM_METRICS_PORT: metricsPort.default(defaultMetricsPort),
  GEM_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

export type ServerEnv = z.infer<typeof serverEnv>;

export type ServerConfig = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  database: { kind: 'postgres'; url: string; poolMax: number } | { kind: 'pglite'; dataDir: string };
  migrationsDir: string;
  webDistDir: string;
  log: { level: ServerEnv['GEM_LOG_LEVEL']; pretty: boolean };
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** false, a hop count, or the proxies' addresses (Fastify's trustProxy). */
  trustProxy: false | number | string[];
  /** The external visual brand checker page, embedded in an iframe (spec §1). */
  brandCheckerUrl: string | undefined;
  /** Where Prometheus metrics are served (lib/metrics.ts), apart from GEM's port; null: not served. */
  metrics: { port: number; host: string } | null;
};

/** Listening on one named interface (e.g. 127.0.0.1) means that is the address people use. */
function defaultPublicUrl(host: string, port: number) {
  const named = host !== '0.0.0.0' && host !== '::' ? host : 'localhost';
  try {
    return new URL(`http://${named.includes(':') ? `[${named}]` : named}:${port}`).origin;
  } catch {
    return `http://localhost:${port}`;
  }
}

/** The public origin of GEM, e.g. https://gem.example.com. */
export function publicUrlOf(e: ServerEnv): string {
  return e.GEM_PUBLIC_URL ?? defaultPublicUrl(e.GEM_HOST, e.PORT);
}

export function serverConfig(
  e: ServerEnv,
  { stdoutIsTty }: { stdoutIsTty: boolean },
  problems: string[],
): ServerConfig {
  if (e.GEM_BRAND_CHECKER_URL && new URL(e.GEM_BRAND_CHECKER_URL).origin === new URL(publicUrlOf(e)).origin) {
    // The frame runs scripts with same-origin rights: on GEM's own origin it could read the session.
    problems.push('GEM_BRAND_CHECKER_URL: must be on another origin than GEM itself (GEM_PUBLIC_URL)');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.GEM_HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolMax: e.GEM_DB_POOL_MAX }
      : { kind: 'pglite', dataDir: e.GEM_DATA_DIR },
    migrationsDir: e.GEM_MIGRATIONS_DIR,
    webDistDir: e.GEM_WEB_DIST_DIR,
    log: {
      level: e.GEM_LOG_LEVEL,
      pretty: e.GEM_LOG_PRETTY ?? (e.NODE_ENV === 'development' && stdoutIsTty),
    },
    bodyLimitBytes: e.GEM_BODY_LIMIT_BYTES,
    shutdownTimeoutMs: e.GEM_SHUTDOWN_TIMEOUT_MS,
    trustProxy: e.GEM_TRUST_PROXY,
    brandCheckerUrl: e.GEM_BRAND_CHECKER_URL,
    metrics: e.GEM_METRICS_PORT === null ? null : { port: e.GEM_METRICS_PORT, host: e.GEM_METRICS_HOST },
  };
}

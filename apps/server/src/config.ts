import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { readFeedsFile, type FeedSource } from './integrations/feeds/feeds-file';

/**
 * The only reader of process.env. Every setting is parsed here, once, at start;
 * a bad value stops the start with a list of every bad field.
 * Each variable is documented in README.md and .env.example.
 */

// Both src/config.ts and the bundled dist/server.js sit one folder below apps/server,
// so these defaults hold whether the server runs from source or from the bundle.
const defaultMigrationsDir = fileURLToPath(new URL('../drizzle', import.meta.url));
const defaultWebDistDir = fileURLToPath(new URL('../../web/dist', import.meta.url));
const defaultFeedSamplesDir = fileURLToPath(new URL('../feed-samples', import.meta.url));

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be one of true, false, 1, 0, yes, no',
  })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = (max: number) => z.coerce.number().int().positive().max(max);

const commaList = (s: string) =>
  s
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

const emailPattern = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
const domainPattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const rolePattern = /^[A-Za-z0-9._:/-]{1,120}$/;

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

/** An origin (scheme, host, port) with no path, query or fragment. */
const publicOrigin = httpUrl
  .refine((v) => {
    const u = new URL(v);
    return (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash && !u.username;
  }, 'must be an origin only, like https://gem.example.com (no path, query or credentials)')
  .transform((v) => new URL(v).origin);

const isLoopback = (host: string) => ['localhost', '127.0.0.1', '[::1]'].includes(host);
/** GEM_HOST values that only this machine can reach. */
const isLoopbackInterface = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

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
  const bad = list.filter((a) => !/^[0-9a-f.:]+(\/\d{1,3})?$/i.test(a));
  if (bad.length > 0) {
    ctx.addIssue({ code: 'custom', message: `not proxy addresses: ${bad.join(', ')}` });
    return false;
  }
  return list;
});

// Entra's multi-tenant endpoints have no fixed issuer: GEM must be tied to one tenant.
const entraHosts = new Set([
  'login.microsoftonline.com',
  'login.microsoftonline.us',
  'login.partner.microsoftonline.cn',
  'login.chinacloudapi.cn',
]);
const entraSharedTenants = new Set(['common', 'organizations', 'consumers']);

const issuerUrl = httpUrl
  .refine((v) => {
    const u = new URL(v);
    return u.protocol === 'https:' || isLoopback(u.hostname);
  }, 'must use https:// (http:// is accepted for localhost only)')
  .refine((v) => {
    const u = new URL(v);
    const tenant = u.pathname.split('/')[1] ?? '';
    return !(entraHosts.has(u.hostname) && entraSharedTenants.has(tenant.toLowerCase()));
  }, 'must name your tenant, e.g. https://login.microsoftonline.com/<tenant id>/v2.0 (common, organizations and consumers are refused)');

const listOf = (pattern: RegExp, what: string, transform: (v: string) => string = (v) => v) =>
  z.string().transform((raw, ctx) => {
    const items = commaList(raw).map(transform);
    const bad = items.filter((v) => !pattern.test(v));
    if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `not ${what}: ${bad.join(', ')}` });
    return items;
  });

export const aiProviders = ['openai', 'azure', 'anthropic', 'openai-compatible'] as const;
export type AiProvider = (typeof aiProviders)[number];

const defaultAccessContacts = [
  'marketing-ops@example.com',
  'it-servicedesk@example.com',
  'security@example.com',
] as const;

/** An empty variable counts as unset, so `FOO=` in .env falls back to the default. */
const emptyAsUnset = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));

/** Every variable GEM reads; a test checks that README.md and .env.example document each one. */
export const envSchema = z.object({
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
  GEM_OIDC_ISSUER: issuerUrl.optional(),
  GEM_OIDC_CLIENT_ID: z.string().min(1).max(200).optional(),
  GEM_OIDC_SCOPE: z
    .string()
    .regex(/^\S+$/, 'must be one scope, e.g. api://<application id>/access_as_user')
    .optional(),
  GEM_OIDC_AUDIENCE: z.string().min(1).max(300).optional(),
  GEM_OIDC_REQUIRED_SCOPE: z
    .string()
    .regex(/^\S+$/, 'must be one scope name, e.g. access_as_user')
    .optional(),
  GEM_EMBEDDED_IDP: booleanString.optional(),
  GEM_DEMO_ACCOUNTS: booleanString.optional(),
  GEM_ACCESS_CONTACTS: listOf(emailPattern, 'e-mail addresses')
    .refine((list) => list.length === 3, 'must list exactly three e-mail addresses, comma-separated')
    .optional(),
  GEM_ACCESS_ALLOWED_DOMAINS: listOf(domainPattern, 'domain names', (v) => v.toLowerCase()).optional(),
  GEM_ACCESS_REQUIRED_ROLES: listOf(rolePattern, 'role names').optional(),
  GEM_BRAND_CHECKER_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),

  GEM_AI_PROVIDER: z.enum(aiProviders, { error: `must be one of ${aiProviders.join(', ')}` }).optional(),
  GEM_AI_MODEL: z.string().min(1).max(200).optional(),
  GEM_AI_API_KEY: z.string().min(1).max(4096).optional(),
  GEM_AI_BASE_URL: httpUrl.optional(),
  GEM_AI_AZURE_RESOURCE: z
    .string()
    .regex(
      /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i,
      'must be the resource name only, e.g. contoso-openai (use GEM_AI_BASE_URL for a full address)',
    )
    .optional(),
  GEM_AI_AZURE_DEPLOYMENT: z.string().min(1).max(200).optional(),
  GEM_AI_AZURE_API_VERSION: z
    .string()
    .regex(
      /^(v1|preview|\d{4}-\d{2}-\d{2}(-preview)?)$/,
      'must be v1, preview or a dated version like 2024-10-21',
    )
    .optional(),
  GEM_AI_TIMEOUT_MS: positiveInt(10 * 60 * 1000).default(60_000),
  GEM_AI_RATE_LIMIT_PER_MINUTE: positiveInt(10_000).default(20),
  GEM_AI_MAX_CONCURRENT_PER_USER: positiveInt(100).default(2),
  GEM_FEEDS_FILE: z.string().min(1).optional(),
  GEM_FEEDS_REFRESH_MINUTES: positiveInt(24 * 60).default(15),
  GEM_FEEDS_RETENTION_DAYS: positiveInt(3650).default(90),
  GEM_FEEDS_ALLOW_PRIVATE_HOSTS: booleanString.default(false),
});

/** Where the SPA's tokens come from; see README "Use Microsoft Entra ID". */
export type AuthConfig = {
  /** embedded: GEM's own provider under /oidc; external: GEM_OIDC_ISSUER (Entra ID or any OIDC issuer). */
  mode: 'embedded' | 'external';
  /** The public origin of GEM, e.g. https://gem.example.com. */
  publicUrl: string;
  issuer: string;
  clientId: string;
  /** The API scope the SPA asks for. */
  scope: string;
  /** The `aud` every access token must carry. */
  audience: string;
  requiredScope: string | undefined;
  /** Seed the demo accounts (embedded provider only). */
  demoAccounts: boolean;
  /** GEM_EMBEDDED_IDP=true was set: the embedded provider may run in production. */
  embeddedExplicit: boolean;
};

export type AccessConfig = {
  contacts: [string, string, string];
  allowedDomains: string[];
  requiredRoles: string[];
  /** How long a hasAccess decision is reused; a revoked grant takes effect within this. */
  decisionCacheMs: number;
};

/** The AI text service (issue 4); see README "AI service". */
export type AiServiceConfig =
  | { provider: 'openai'; model: string; apiKey: string; baseUrl: string | undefined }
  | { provider: 'anthropic'; model: string; apiKey: string; baseUrl: string | undefined }
  /** Any server with the chat-completions API: Ollama, vLLM, LM Studio, llama.cpp. */
  | { provider: 'openai-compatible'; model: string; apiKey: string | undefined; baseUrl: string }
  | {
      provider: 'azure';
      /** What GEM reports and records; the deployment's name unless GEM_AI_MODEL says otherwise. */
      model: string;
      deployment: string;
      apiKey: string;
      /** One of these two names the endpoint. */
      resourceName: string | undefined;
      baseUrl: string | undefined;
      apiVersion: string;
    };

export type AiConfig = {
  /** null: no AI service is configured; the AI tools answer 503 ai_not_configured. */
  service: AiServiceConfig | null;
  /** Each model call, retries and their waits included. */
  timeoutMs: number;
  /** A 429 or 5xx is retried at most this often. */
  maxRetries: number;
  /** The first wait before a retry when the service sends no Retry-After; doubles after. */
  retryBaseDelayMs: number;
  /** Per user, shared by every instance through the database. */
  limits: { perMinute: number; concurrent: number };
};

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  database: { kind: 'postgres'; url: string; poolMax: number } | { kind: 'pglite'; dataDir: string };
  migrationsDir: string;
  webDistDir: string;
  log: { level: z.infer<typeof envSchema>['GEM_LOG_LEVEL']; pretty: boolean };
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** false, a hop count, or the proxies' addresses (Fastify's trustProxy). */
  trustProxy: false | number | string[];
  auth: AuthConfig;
  access: AccessConfig;
  /** The external visual brand checker page, embedded in an iframe (spec §1). */
  brandCheckerUrl: string | undefined;
  ai: AiConfig;
  feeds: FeedsConfig;
};

/** Market Research feeds; see README "Market Research feeds". */
export type FeedsConfig = {
  /** The feeds file's entries: area or area/sub-area → URL. */
  sources: FeedSource[];
  /** Where `gem-sample:` documents and the default feeds file are. */
  samplesDir: string;
  refreshMinutes: number;
  retentionDays: number;
  /** Let feeds be read from loopback, private and link-local addresses (tests, local hosts). */
  allowPrivateHosts: boolean;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default). Throws ConfigError listing every bad field. */
export function parseConfig(
  env: Record<string, string | undefined>,
  { stdoutIsTty = false }: { stdoutIsTty?: boolean } = {},
): Config {
  const parsed = envSchema.safeParse(emptyAsUnset(env));
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  const auth = authConfig(e, problems);
  const aiService = aiServiceConfig(e, problems);
  if (auth.mode === 'embedded' && auth.publicUrl.startsWith('https:') && e.GEM_TRUST_PROXY === false) {
    // GEM speaks plain HTTP, so an https address means a proxy ends TLS; unless GEM trusts it,
    // the embedded provider cannot tell and sends its sign-in cookies without Secure.
    problems.push(
      'GEM_TRUST_PROXY: GEM_PUBLIC_URL is https, so a proxy ends TLS in front of GEM; set GEM_TRUST_PROXY to the number of proxies (e.g. 1) or their addresses',
    );
  }
  if (e.GEM_BRAND_CHECKER_URL && new URL(e.GEM_BRAND_CHECKER_URL).origin === new URL(auth.publicUrl).origin) {
    // The frame runs scripts with same-origin rights: on GEM's own origin it could read the session.
    problems.push('GEM_BRAND_CHECKER_URL: must be on another origin than GEM itself (GEM_PUBLIC_URL)');
  }
  const feedSources = readFeedsFile(
    e.GEM_FEEDS_FILE ?? `${defaultFeedSamplesDir}/feeds.json`,
    defaultFeedSamplesDir,
    problems,
  );
  if (problems.length > 0) throw new ConfigError(problems);
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
    auth,
    access: {
      contacts: (e.GEM_ACCESS_CONTACTS ?? [...defaultAccessContacts]) as [string, string, string],
      allowedDomains: e.GEM_ACCESS_ALLOWED_DOMAINS ?? [],
      requiredRoles: e.GEM_ACCESS_REQUIRED_ROLES ?? [],
      decisionCacheMs: 60_000,
    },
    brandCheckerUrl: e.GEM_BRAND_CHECKER_URL,
    ai: {
      service: aiService,
      timeoutMs: e.GEM_AI_TIMEOUT_MS,
      maxRetries: 2,
      retryBaseDelayMs: 1_000,
      limits: { perMinute: e.GEM_AI_RATE_LIMIT_PER_MINUTE, concurrent: e.GEM_AI_MAX_CONCURRENT_PER_USER },
    },
    feeds: {
      sources: feedSources,
      samplesDir: defaultFeedSamplesDir,
      refreshMinutes: e.GEM_FEEDS_REFRESH_MINUTES,
      retentionDays: e.GEM_FEEDS_RETENTION_DAYS,
      allowPrivateHosts: e.GEM_FEEDS_ALLOW_PRIVATE_HOSTS,
    },
  };
}

/** Which AI service GEM uses; every missing or contradictory setting is one problem. */
function aiServiceConfig(e: z.infer<typeof envSchema>, problems: string[]): AiServiceConfig | null {
  const provider = e.GEM_AI_PROVIDER;
  const azureOnly = ['GEM_AI_AZURE_RESOURCE', 'GEM_AI_AZURE_DEPLOYMENT', 'GEM_AI_AZURE_API_VERSION'] as const;
  if (!provider) {
    // Half a set-up must not leave the AI tools off silently.
    for (const name of ['GEM_AI_MODEL', 'GEM_AI_API_KEY', 'GEM_AI_BASE_URL', ...azureOnly] as const) {
      if (e[name])
        problems.push(`${name}: is set but GEM_AI_PROVIDER is not; set the provider too, or unset ${name}`);
    }
    return null;
  }
  const required = (name: 'GEM_AI_MODEL' | 'GEM_AI_API_KEY' | 'GEM_AI_BASE_URL', example = '') => {
    const value = e[name];
    if (!value) problems.push(`${name}: is required with GEM_AI_PROVIDER=${provider}${example}`);
    return value ?? '';
  };
  if (provider !== 'azure') {
    for (const name of azureOnly) {
      if (e[name]) problems.push(`${name}: applies to GEM_AI_PROVIDER=azure only`);
    }
  }
  switch (provider) {
    case 'openai':
    case 'anthropic':
      return {
        provider,
        model: required('GEM_AI_MODEL'),
        apiKey: required('GEM_AI_API_KEY'),
        baseUrl: e.GEM_AI_BASE_URL,
      };
    case 'openai-compatible':
      return {
        provider,
        model: required('GEM_AI_MODEL'),
        apiKey: e.GEM_AI_API_KEY,
        baseUrl: required('GEM_AI_BASE_URL', ', e.g. http://127.0.0.1:11434/v1 for Ollama'),
      };
    case 'azure': {
      if (!e.GEM_AI_AZURE_RESOURCE && !e.GEM_AI_BASE_URL) {
        problems.push(
          'GEM_AI_AZURE_RESOURCE: is required with GEM_AI_PROVIDER=azure (the resource name, e.g. contoso-openai), unless GEM_AI_BASE_URL gives the endpoint',
        );
      }
      if (e.GEM_AI_AZURE_RESOURCE && e.GEM_AI_BASE_URL) {
        problems.push(
          'GEM_AI_BASE_URL: set either it or GEM_AI_AZURE_RESOURCE with GEM_AI_PROVIDER=azure, not both',
        );
      }
      const deployment = e.GEM_AI_AZURE_DEPLOYMENT ?? e.GEM_AI_MODEL;
      if (!deployment) {
        problems.push(
          'GEM_AI_AZURE_DEPLOYMENT: is required with GEM_AI_PROVIDER=azure (the deployment name; GEM_AI_MODEL is used when it is unset)',
        );
      }
      return {
        provider,
        model: e.GEM_AI_MODEL ?? deployment ?? '',
        deployment: deployment ?? '',
        apiKey: required('GEM_AI_API_KEY'),
        resourceName: e.GEM_AI_AZURE_RESOURCE,
        baseUrl: e.GEM_AI_BASE_URL,
        apiVersion: e.GEM_AI_AZURE_API_VERSION ?? 'v1',
      };
    }
  }
}

/** The embedded provider's fixed client and API, which need nothing configured. */
export const embeddedClientId = 'gem-web';
export const embeddedApiScope = 'gem.api';

/** Listening on one named interface (e.g. 127.0.0.1) means that is the address people use. */
function defaultPublicUrl(host: string, port: number) {
  const named = host !== '0.0.0.0' && host !== '::' ? host : 'localhost';
  try {
    return new URL(`http://${named.includes(':') ? `[${named}]` : named}:${port}`).origin;
  } catch {
    return `http://localhost:${port}`;
  }
}

function authConfig(e: z.infer<typeof envSchema>, problems: string[]): AuthConfig {
  const publicUrl = e.GEM_PUBLIC_URL ?? defaultPublicUrl(e.GEM_HOST, e.PORT);
  const production = e.NODE_ENV === 'production';
  const base = { publicUrl, requiredScope: e.GEM_OIDC_REQUIRED_SCOPE };

  if (e.GEM_OIDC_ISSUER) {
    if (e.GEM_EMBEDDED_IDP === true) {
      problems.push('GEM_EMBEDDED_IDP: cannot be true while GEM_OIDC_ISSUER is set; use one or the other');
    }
    if (e.GEM_DEMO_ACCOUNTS === true) {
      problems.push(
        'GEM_DEMO_ACCOUNTS: demo accounts exist only in the embedded provider (GEM_OIDC_ISSUER is set)',
      );
    }
    for (const name of ['GEM_OIDC_CLIENT_ID', 'GEM_OIDC_SCOPE', 'GEM_OIDC_AUDIENCE'] as const) {
      if (!e[name]) problems.push(`${name}: is required when GEM_OIDC_ISSUER is set`);
    }
    return {
      ...base,
      mode: 'external',
      issuer: e.GEM_OIDC_ISSUER,
      clientId: e.GEM_OIDC_CLIENT_ID ?? '',
      scope: e.GEM_OIDC_SCOPE ?? '',
      audience: e.GEM_OIDC_AUDIENCE ?? '',
      demoAccounts: false,
      embeddedExplicit: false,
    };
  }

  // Half an external set-up must not fall back to the embedded provider silently.
  for (const name of ['GEM_OIDC_CLIENT_ID', 'GEM_OIDC_SCOPE', 'GEM_OIDC_AUDIENCE'] as const) {
    if (e[name])
      problems.push(`${name}: is set but GEM_OIDC_ISSUER is not; set the issuer too, or unset ${name}`);
  }
  if (e.GEM_EMBEDDED_IDP === false) {
    problems.push('GEM_EMBEDDED_IDP: is false, so GEM_OIDC_ISSUER must name your identity provider');
  } else if (production && e.GEM_EMBEDDED_IDP !== true) {
    problems.push(
      'GEM_OIDC_ISSUER: is required when NODE_ENV=production (or set GEM_EMBEDDED_IDP=true to run the embedded provider in production on purpose)',
    );
  }
  if (production && e.GEM_DEMO_ACCOUNTS === true) {
    problems.push(
      'GEM_DEMO_ACCOUNTS: the demo accounts have published passwords and are refused when NODE_ENV=production',
    );
  }
  return {
    ...base,
    mode: 'embedded',
    issuer: `${publicUrl}/oidc`,
    clientId: embeddedClientId,
    scope: embeddedApiScope,
    audience: `${publicUrl}/api`,
    // Known passwords: only on a machine nobody else reaches, unless asked for outside production.
    demoAccounts: e.GEM_DEMO_ACCOUNTS ?? (!production && isLoopbackInterface(e.GEM_HOST)),
    embeddedExplicit: e.GEM_EMBEDDED_IDP === true,
  };
}

/** Loads `.env` from the working directory when present (real variables win), then parses. */
export function loadConfig(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return parseConfig(process.env, { stdoutIsTty: Boolean(process.stdout.isTTY) });
}

/**
 * The folder an `npm run` command was typed in: npm runs a workspace's scripts from the
 * workspace folder, but `.env` and a relative GEM_DATA_DIR mean the folder GEM starts in.
 */
export function invocationDir(): string | undefined {
  return process.env.INIT_CWD;
}

/** Values a test process can use without touching process.env. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...parseConfig({ NODE_ENV: 'test', GEM_LOG_LEVEL: 'silent' }), ...overrides };
}

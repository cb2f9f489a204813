import { existsSync } from 'node:fs';
import { z } from 'zod';
import { aiConfig, aiEnv, type AiConfig } from './ai';
import { accessConfig, authConfig, authEnv, type AccessConfig, type AuthConfig } from './auth';
import {
  competitorsConfig,
  competitorsEnv,
  searchConfig,
  type CompetitorsConfig,
  type SearchConfig,
} from './competitors';
import { crmConfig, crmEnv, type CrmConfig } from './crm';
import { feedsConfig, feedsEnv, type FeedsConfig } from './feeds';
import { publicUrlOf, serverConfig, serverEnv, type ServerConfig } from './server';

export { aiProviders, DEMO_MODEL, type AiConfig, type AiProvider, type AiServiceConfig } from './ai';
export { embeddedApiScope, embeddedClientId, type AccessConfig, type AuthConfig } from './auth';
export type { Competitor, CompetitorsConfig, SearchConfig } from './competitors';
export type { CrmConfig } from './crm';
export type { FeedsConfig } from './feeds';
export type { ServerConfig } from './server';

/**
 * The only reader of process.env. Every setting is parsed here, once, at start; a bad value
 * stops the start with a list of every bad field. Each concern (server.ts, auth.ts, ai.ts,
 * feeds.ts, competitors.ts, crm.ts) owns its variables, its rules across them, and its part of Config.
 * Each variable is documented in README.md and .env.example.
 */

/** Every variable GEM reads; a test checks that README.md and .env.example document each one. */
export const envSchema = z.object({
  ...serverEnv.shape,
  ...authEnv.shape,
  ...aiEnv.shape,
  ...feedsEnv.shape,
  ...competitorsEnv.shape,
  ...crmEnv.shape,
});

export type Config = ServerConfig & {
  auth: AuthConfig;
  access: AccessConfig;
  ai: AiConfig;
  feeds: FeedsConfig;
  competitors: CompetitorsConfig;
  search: SearchConfig;
  crm: CrmConfig;
};

/**
 * A rule config cannot know by itself, handed in by a composition root (e.g. that the feeds
 * file names market areas of the catalogue). Returns its problems, each "VARIABLE: what is wrong".
 */
export type ConfigCheck = (config: Config) => string[];

export type ConfigOptions = {
  /** Run by the caller's environment: pretty logs by default in development on a terminal. */
  stdoutIsTty?: boolean;
  /** Their problems join the one ConfigError list. */
  checks?: readonly ConfigCheck[];
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** An empty variable counts as unset, so `FOO=` in .env falls back to the default. */
const emptyAsUnset = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));

/** Parses an environment. Throws ConfigError listing every bad field. */
export function parseConfig(
  env: Record<string, string | undefined>,
  { stdoutIsTty = false, checks = [] }: ConfigOptions = {},
): Config {
  const parsed = envSchema.safeParse(emptyAsUnset(env));
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  const server = serverConfig(e, { stdoutIsTty }, problems);
  const auth = authConfig(e, server, publicUrlOf(e), problems);
  const config: Config = {
    ...server,
    auth,
    access: accessConfig(e, auth),
    // On the embedded defaults (npm start: development, demo accounts) the built-in stand-in answers.
    ai: aiConfig(
      e,
      {
        standInByDefault: server.env === 'development' && auth.mode === 'embedded' && auth.demoAccounts,
        production: server.env === 'production',
      },
      problems,
    ),
    feeds: feedsConfig(e, problems),
    competitors: competitorsConfig(e, problems),
    search: searchConfig(e, problems),
    crm: crmConfig(e, problems),
  };
  for (const check of checks) problems.push(...check(config));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Loads `.env` from the working directory when present (real variables win), then parses process.env. */
export function loadConfig({ checks }: Pick<ConfigOptions, 'checks'> = {}): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  return parseConfig(process.env, { stdoutIsTty: Boolean(process.stdout.isTTY), checks });
}

/**
 * The folder an `npm run` command was typed in: npm runs a workspace's scripts from the
 * workspace folder, but `.env` and a relative GEM_DATA_DIR mean the folder GEM starts in.
 */
export function invocationDir(): string | undefined {
  return process.env.INIT_CWD;
}

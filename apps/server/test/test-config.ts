import { ConfigError, parseConfig, type Config, type ConfigCheck } from '../src/config';
import { checkMarketFeedKeys } from '../src/modules/market-research/market-feed-keys';

/**
 * Values a test process can use without touching process.env. The bundled feeds file goes
 * through the same catalogue check as at start.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...parseConfig({ NODE_ENV: 'test', GEM_LOG_LEVEL: 'silent' }, { checks: [checkMarketFeedKeys] }),
    ...overrides,
  };
}

/** The problems a start with this environment would list (none when it starts). */
export function configProblems(env: Record<string, string>, checks: readonly ConfigCheck[] = []): string[] {
  try {
    parseConfig(env, { checks });
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems;
  }
}

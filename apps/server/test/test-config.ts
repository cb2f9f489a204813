import { parseConfig, type Config } from '../src/config';
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

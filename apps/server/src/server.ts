import closeWithGrace from 'close-with-grace';
import { createAdapters } from './adapters';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { createLogger } from './lib/logger';
import { settleDemoAccounts } from './modules/identity/demo-accounts';
import { checkMarketFeedKeys } from './modules/market-research/market-feed-keys';

/**
 * Process entry: read config, open and migrate the database, build the adapters, settle the
 * demo accounts, compose the app, listen, shut down gracefully.
 */

let config: Config;
try {
  config = loadConfig({ checks: [checkMarketFeedKeys] });
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`GEM cannot start. ${err.message}\nSee README.md, "Configuration".\n`);
  process.exit(1);
}

const logger = createLogger(config);
const database = await openDatabase(config.database, config.migrationsDir);
const adapters = await createAdapters({ config, db: database.db, log: logger });
await settleDemoAccounts({
  config,
  identityProvider: adapters.identityProvider,
  db: database.db,
  log: logger,
});
const app = await buildApp({ config, database, adapters, logger });

closeWithGrace({ delay: config.shutdownTimeoutMs }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'stopping after an uncaught error');
  else app.log.info({ signal }, 'stopping: finishing requests in flight');
  await app.close();
  await database.close();
  app.log.info('stopped');
});

await app.listen({ port: config.port, host: config.host });
app.log.info({ database: database.kind }, 'GEM is ready');

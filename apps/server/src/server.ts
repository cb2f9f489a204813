import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';

/** Process entry: read config, open and migrate the database, listen, shut down gracefully. */

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`GEM cannot start. ${err.message}\nSee README.md, "Configuration".\n`);
  process.exit(1);
}

const database = await openDatabase(config.database, config.migrationsDir);
const app = await buildApp({ config, database });

closeWithGrace({ delay: config.shutdownTimeoutMs }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'stopping after an uncaught error');
  else app.log.info({ signal }, 'stopping: finishing requests in flight');
  await app.close();
  await database.close();
  app.log.info('stopped');
});

await app.listen({ port: config.port, host: config.host });
app.log.info({ database: database.kind }, 'GEM is ready');

import closeWithGrace from 'close-with-grace';
import { createAdapters } from './adapters';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { startExitWatchdog } from './lib/exit-watchdog';
import { createLogger } from './lib/logger';
import { createMetrics, serveMetrics, type MetricsServer } from './lib/metrics';
import { settleDemoAccounts } from './modules/identity/demo-accounts';
import { checkMarketFeedKeys } from './modules/market-research/market-feed-keys';
import { createServices } from './services';

/**
 * Process entry: read config, open and migrate the database, build the adapters, settle the
 * demo accounts, build the services, compose the app, listen, serve the metrics, shut down gracefully.
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
const database = await openDatabase(config.database, config.migrationsDir, logger.child({ module: 'db' }));
const adapters = await createAdapters({ config, db: database.db, log: logger });
await settleDemoAccounts({
  config,
  identityProvider: adapters.identityProvider,
  db: database.db,
  log: logger,
});
const metrics = createMetrics({ processMetrics: true });
const services = createServices({ config, database, adapters, log: logger, metrics });
const app = await buildApp({ config, services, logger, metrics });
let metricsServer: MetricsServer | undefined;

/** How long after the drain's timeout the process is killed if exiting did not end it. */
const exitMarginMs = 2_000;

// The drain has config.shutdownTimeoutMs, then close-with-grace exits (1). Should the main thread
// be stuck and its timer never fire, the watchdog kills the process a little later: no write,
// no exit handler, no close that never ends can keep it alive past that.
closeWithGrace(
  { delay: config.shutdownTimeoutMs, logger: closeWithGraceLogger() },
  async ({ signal, err }) => {
    startExitWatchdog(config.shutdownTimeoutMs + exitMarginMs, (watchdogErr) =>
      app.log.error({ err: watchdogErr }, 'the exit watchdog did not start'),
    );
    if (err) app.log.error({ err }, 'stopping after an uncaught error');
    else app.log.info({ signal }, 'stopping: finishing requests in flight');
    await app.close();
    await metricsServer?.close();
    await database.close();
    app.log.info('stopped');
  },
);

await app.listen({ port: config.port, host: config.host });
app.log.info({ database: database.kind }, 'GEM is ready');

// Metrics on their own port, after GEM answers. A port that cannot be taken (another instance
// on this machine has it) leaves GEM running without them: the missing scrape target shows it.
if (config.metrics) {
  try {
    metricsServer = await serveMetrics(metrics, config.metrics);
    const { address, port } = metricsServer.address;
    app.log.info({ address, port }, 'metrics served at /metrics');
  } catch (err) {
    app.log.error(
      { err, host: config.metrics.host, port: config.metrics.port },
      'metrics not served: the port could not be taken (GEM_METRICS_PORT, GEM_METRICS_HOST); GEM runs on without them',
    );
  }
}

/**
 * close-with-grace's own messages ("killed by timeout", "second SIGTERM, exiting", an error the
 * drain threw) as log lines, through the logger that never blocks, instead of on stderr.
 */
function closeWithGraceLogger() {
  return {
    error: (message: unknown) => {
      if (typeof message === 'string') logger.error(message);
      else logger.error({ err: message }, 'stopping failed');
    },
  };
}

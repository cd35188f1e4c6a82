import { ConfigError } from './config.js';
import { Lifecycle, exitOnSignals } from './lifecycle.js';
import { createLogger, type Logger } from './log.js';
import { startMetricsServer } from './metrics/metrics.js';
import { settingsText, type Setting, type Settings } from './settings.js';
import { startTracing, type TracingConfig } from './tracing/tracing.js';

/** How long a signalled process may drain before it is forced to exit. */
export const SHUTDOWN_FUSE_MS = 15_000;

/** What every service's config carries that running it needs. */
export interface ServiceConfig {
  logLevel: string;
  metrics?: { port: number | undefined; host: string };
  /** OTEL_* settings; tracing starts before the service, so its clients and servers are traced. */
  tracing?: TracingConfig;
}

/** One service process: its settings, its config reader, and what it starts. */
export interface ServiceProcess<C extends ServiceConfig> {
  name: string;
  /** Printed by `main.js --settings`, instead of starting. */
  settings: Settings<Record<string, Setting<unknown>>>;
  /** The service's only process.env reader; a ConfigError stops the start, naming every bad variable. */
  read: () => C;
  start: (config: C, lifecycle: Lifecycle, log: Logger) => Promise<void>;
}

/**
 * Runs one service process: `--settings` prints its settings table and exits; otherwise its
 * config is read once, then a logger, a lifecycle stopped by SIGTERM/SIGINT, and a clear exit
 * on bad configuration or a failed start; with OTEL_TRACES_EXPORTER set, tracing from the
 * start; with METRICS_PORT set, a /metrics listener once started.
 */
export function runService<C extends ServiceConfig>(
  service: ServiceProcess<C>,
  argv: readonly string[] = process.argv.slice(2),
): void {
  if (argv.includes('--settings')) {
    process.stdout.write(settingsText(service.settings));
    return;
  }
  let config: C;
  try {
    config = service.read();
  } catch (err) {
    fail(createLogger(service.name), err);
    return;
  }
  const log = createLogger(service.name, config.logLevel);
  const lifecycle = new Lifecycle(log);
  exitOnSignals(lifecycle, log, SHUTDOWN_FUSE_MS);
  const metrics = config.metrics;
  const start = async () => {
    if (config.tracing !== undefined) await startTracing(config.tracing, lifecycle, log);
    await service.start(config, lifecycle, log);
    if (metrics?.port !== undefined) await startMetricsServer(metrics.port, metrics.host, lifecycle, log);
  };
  start().catch(async (err: unknown) => {
    fail(log, err);
    await lifecycle.stop('start failed');
    process.exit(1);
  });
}

function fail(log: Logger, err: unknown): void {
  if (err instanceof ConfigError) log.fatal({ variables: err.problems.map((p) => p.variable) }, err.message);
  else log.fatal({ err }, 'failed to start');
  process.exitCode = 1;
}

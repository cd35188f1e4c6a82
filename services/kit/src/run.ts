import { ConfigError } from './config.js';
import { Lifecycle, exitOnSignals } from './lifecycle.js';
import { createLogger, type Logger } from './log.js';

/** How long a signalled process may drain before it is forced to exit. */
export const SHUTDOWN_FUSE_MS = 15_000;

/**
 * Runs one service process: a logger, a lifecycle stopped by SIGTERM/SIGINT, and a clear
 * exit on bad configuration (naming the variable) or a failed start.
 */
export function runProcess(name: string, logLevel: () => string, start: (lifecycle: Lifecycle, log: Logger) => Promise<void>): void {
  let log = createLogger(name);
  let lifecycle = new Lifecycle(log);
  try {
    log = createLogger(name, logLevel());
    lifecycle = new Lifecycle(log);
  } catch (err) {
    fail(log, err);
    return;
  }
  exitOnSignals(lifecycle, log, SHUTDOWN_FUSE_MS);
  start(lifecycle, log).catch(async (err: unknown) => {
    fail(log, err);
    await lifecycle.stop('start failed');
    process.exit(1);
  });
}

function fail(log: Logger, err: unknown): void {
  if (err instanceof ConfigError) log.fatal({ variable: err.variable }, err.message);
  else log.fatal({ err }, 'failed to start');
  process.exitCode = 1;
}

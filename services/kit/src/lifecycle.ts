import type { Logger } from './log.js';

type Disposer = () => Promise<void> | void;

/**
 * Graceful shutdown as a stack of disposers registered as resources are created. `stop`
 * runs them newest first (stop accepting → drain → close stores), each once, and a fuse
 * bounds the whole thing so a stuck disposer cannot keep the process alive.
 */
export class Lifecycle {
  private readonly disposers: { name: string; fn: Disposer }[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly log: Logger) {}

  /** Registers a disposer; returns the value for chaining at the creation site. */
  defer(name: string, fn: Disposer): void {
    this.disposers.push({ name, fn });
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** Runs every disposer in reverse order; concurrent calls share the same run. */
  stop(reason: string): Promise<void> {
    this.stopping ??= this.run(reason);
    return this.stopping;
  }

  private async run(reason: string): Promise<void> {
    this.log.info({ reason }, 'shutting down');
    for (const { name, fn } of this.disposers.splice(0).reverse()) {
      try {
        await fn();
      } catch (err) {
        this.log.error({ err, name }, 'disposer failed');
      }
    }
    this.log.info('shutdown complete');
  }
}

/**
 * Stops the lifecycle on SIGTERM/SIGINT and exits 0; exits 1 if the fuse (ms) burns first.
 * A second signal forces exit at once.
 */
export function exitOnSignals(lifecycle: Lifecycle, log: Logger, fuseMs: number): void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (lifecycle.isStopping) {
      log.warn({ signal }, 'second signal: forcing exit');
      process.exit(1);
    }
    const fuse = setTimeout(() => {
      log.error({ fuseMs }, 'shutdown fuse burnt: forcing exit');
      process.exit(1);
    }, fuseMs);
    fuse.unref();
    void lifecycle.stop(signal).then(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

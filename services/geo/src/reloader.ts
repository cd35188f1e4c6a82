import type { Logger } from '@civicgraph/kit';
import type { BoundaryStore } from './store/boundary-store.js';

/**
 * Runs reloads one at a time (a reload asked for during one runs once after it), and
 * starts one whenever the boundary store's generation moves — which is how an import made
 * by another process (`civicgraph import boundaries`) reaches a running service.
 */
export class Reloader<T> {
  private running: Promise<T> | undefined;
  private queued: Promise<T> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private seen: number;

  constructor(
    private readonly reload: () => Promise<T>,
    private readonly store: BoundaryStore,
    private readonly log: Logger,
  ) {
    this.seen = store.generation();
  }

  /** Reloads now, or right after the reload in progress. */
  request(): Promise<T> {
    if (this.running === undefined) return this.start();
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  /** Polls the store's generation every `ms`. */
  watch(ms: number): void {
    this.timer = setInterval(() => this.poll(), ms);
    this.timer.unref();
  }

  /** Stops polling and waits for the reload in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.allSettled([this.running, this.queued]);
  }

  private poll(): void {
    const generation = this.store.generation();
    if (generation === this.seen) return;
    this.seen = generation;
    this.request().catch((err: unknown) =>
      this.log.error({ err }, 'reload after import failed; previous boundaries still serve'),
    );
  }

  private start(): Promise<T> {
    this.seen = this.store.generation();
    const run = this.reload().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}

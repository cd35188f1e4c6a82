import type { Logger } from '@civicgraph/kit';
import type { BoundaryStore } from './store/boundary-store.js';

/** How long a map imported with `serve_later` may wait for an import that serves it. */
export const HOLD_MS = 60_000;

/**
 * Runs reloads one at a time (a reload asked for during one runs once after it), and
 * starts one whenever the boundary store's generation moves — which is how an import made
 * by another process (`civicgraph import boundaries`) reaches a running service — unless
 * that change is held: an import with `serve_later` leaves its map for the next import
 * that waits, or for `holdMs` after the last such import, so a pass of several maps builds the
 * index once instead of once per map.
 */
export class Reloader<T> {
  private running: Promise<T> | undefined;
  private queued: Promise<T> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private seen: number;
  /** When the latest held change was stored, while one waits to be served. */
  private heldAt: number | undefined;
  /** Imports in progress: the watch waits for them. */
  private importsRunning = 0;

  constructor(
    private readonly reload: () => Promise<T>,
    private readonly store: BoundaryStore,
    private readonly log: Logger,
    private readonly holdMs = HOLD_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.seen = store.generation();
  }

  /**
   * Runs an import into the store, the watch paused meanwhile (it would otherwise start a
   * reload between the import's commit and its answer); then serves it, resolving once the
   * index does, or with `serveLater` holds it: the store's changes so far wait for the next
   * request, or `holdMs` from now.
   */
  async importing<R>(work: () => Promise<R>, serveLater: boolean): Promise<R> {
    this.importsRunning++;
    let answer: R;
    try {
      answer = await work();
    } finally {
      this.importsRunning--;
    }
    if (!serveLater) {
      await this.request();
    } else {
      this.seen = this.store.generation();
      this.heldAt = this.now();
    }
    return answer;
  }

  /** Whether a held change is still waiting to be served. */
  holding(): boolean {
    return this.heldAt !== undefined;
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
    if (this.importsRunning > 0) return;
    const generation = this.store.generation();
    const overdue = this.heldAt !== undefined && this.now() - this.heldAt >= this.holdMs;
    if (generation === this.seen && !overdue) return;
    this.seen = generation;
    this.request().catch((err: unknown) =>
      this.log.error({ err }, 'reload after import failed; previous boundaries still serve'),
    );
  }

  private start(): Promise<T> {
    this.seen = this.store.generation();
    this.heldAt = undefined;
    const run = this.reload().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}

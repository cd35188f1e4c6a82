import { lagSeconds } from '@civicgraph/kit';

/**
 * civic_lag_seconds{stage="ingest"}: seconds from a source's fetch to its import being
 * served. A graph import, and a boundary map imported to be served at once, are served when
 * their import returns. A map stored to be served later (serve_later: every map of a pass
 * but its last, so the index is built once) is served with the pass's last map, so its lag
 * is observed then; should the pass end with no map served, geo serves the waiting ones
 * within a minute, and their lag is observed at the pass's end (short by at most that).
 */
export class ImportLag {
  /** Fetch times of maps stored but not yet served. */
  private readonly waiting: Date[] = [];

  /** Data fetched at `fetchedAt` was imported by `at`; `served`: at once, not later with another map. */
  imported(fetchedAt: Date, at: Date, served: boolean): void {
    this.waiting.push(fetchedAt);
    if (served) this.observe(at);
  }

  /** A pass of sources ended at `at`. */
  passEnded(at: Date): void {
    this.observe(at);
  }

  private observe(at: Date): void {
    for (const fetched of this.waiting.splice(0)) {
      lagSeconds.observe({ stage: 'ingest' }, Math.max(0, at.getTime() - fetched.getTime()) / 1000);
    }
  }
}

import { Gauge } from 'prom-client';
import { METRICS } from '@civicgraph/kit';
import type { Ingest } from './ingest.js';

/** The ingest instances of this process (tests start several): the gauge reads them all when scraped. */
const watched = new Set<Ingest>();

/**
 * civic_source_fetch_age_seconds{source}: seconds since each source was last fetched (the
 * refresh schedule bounds it), and civic_source_ok{source}: 1 when that fetch succeeded, 0
 * when it failed and the previous data still serves. Read when /metrics is scraped; a
 * source never fetched reports nothing.
 */
new Gauge({
  name: 'civic_source_ok',
  help: '1 when the last fetch of a public source succeeded, 0 when it failed (the previous data still serves)',
  labelNames: ['source'] as const,
  registers: [METRICS],
  collect() {
    this.reset();
    for (const ingest of watched) {
      for (const { source, state } of ingest.list()) {
        if (state.status !== 'never') this.set({ source: source.id }, state.status === 'ok' ? 1 : 0);
      }
    }
  },
});

new Gauge({
  name: 'civic_source_fetch_age_seconds',
  help: 'seconds since each public source was last fetched',
  labelNames: ['source'] as const,
  registers: [METRICS],
  collect() {
    this.reset();
    const now = Date.now();
    for (const ingest of watched) {
      for (const { source, state } of ingest.list()) {
        if (state.lastFetchAt !== null) this.set({ source: source.id }, (now - Date.parse(state.lastFetchAt)) / 1000);
      }
    }
  },
});

/** Reports `ingest`'s sources in the gauge until the returned function is called. */
export function watchSourceAge(ingest: Ingest): () => void {
  watched.add(ingest);
  return () => void watched.delete(ingest);
}

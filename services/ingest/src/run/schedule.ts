import type { Source } from '../registry.js';
import type { SourceState } from '../state/ingest-store.js';
import { readerOutdated } from './reader-revisions.js';

/** The first retry after a failure, and the longest wait between retries. */
export const FIRST_RETRY_MS = 60_000;
export const LONGEST_RETRY_MS = 6 * 3_600_000;

/** Wait before the next attempt after `failures` failures in a row: 1 min, 2, 4, … at most 6 h. */
export function backoffMs(failures: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

/** Whether a source is due: never fetched, its next attempt has come, or (not failing) it was read by an older reader. */
export function isDue(source: Source, state: SourceState, now: Date): boolean {
  if (state.nextAttemptAt === null || Date.parse(state.nextAttemptAt) <= now.getTime()) return true;
  return state.status === 'ok' && readerOutdated(source, state);
}

/** The sources due now, in registry order (which keeps dependencies first). */
export function dueSources(sources: readonly Source[], stateOf: (id: string) => SourceState, now: Date): Source[] {
  return sources.filter((s) => isDue(s, stateOf(s.id), now));
}

import type { Source, SourceImport } from '../registry.js';
import type { SourceState } from '../state/ingest-store.js';

/**
 * The revision of the code that reads each kind of source. A source is imported again at its
 * next run, even when its content has not changed, if it was last imported under an older
 * revision: a fix in a reader (a repair rule, a parsing correction) then reaches the data a
 * deployment already holds instead of waiting for the publisher's next version. Bump a kind's
 * number with the change that needs it, and say why here.
 */
export const READER_REVISIONS: Readonly<Record<SourceImport['kind'], number>> = {
  // 2: a sliver where a ring crosses itself is cut off; Colorado's Senate District 13 had been refused.
  boundaries: 2,
  ocd: 1,
  legislators: 1,
  'openstates-people': 1,
  // 2: Nebraska's 2024 Senate special: an appointee's registration is for the seat its special elects.
  // 3: a senator's seat is judged by the term held on the cycle's election day (2024's re-elected senators).
  'fec-candidates': 3,
  // 2: a joint ticket's person is its presidential candidate, not the pair.
  results: 2,
  'precinct-districts': 1,
  vip: 1,
};

/**
 * Whether a source's data was imported under an older reader than today's: it is due now
 * (unless failing, when its backoff rules) and read again even if its content is unchanged.
 * A state saved before revisions were kept counts as revision 1.
 */
export function readerOutdated(source: Source, state: SourceState): boolean {
  return state.hash !== null && (state.readerRevision ?? 1) !== READER_REVISIONS[source.import.kind];
}

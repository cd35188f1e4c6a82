import type { StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { Level } from '../../model/kinds.js';
import { reference, stateRegion } from './regions.js';

type RegionDraft = PlainDraft<'region'>;

/**
 * A region a contest is held in or an office serves, as a reference draft (`createOnly`):
 * the importers that name regions this way own none, so they never overwrite what the ocd
 * import states, but a region missing from the store is created so the edges pointing at
 * it have somewhere to go.
 */
export interface ServedRegion {
  draft: RegionDraft;
  /** The slug without `region:`: the first part of office and contest keys. */
  key: string;
  level: Level;
  /** For display names: `Colorado`, `Adams County`, `Wilmington`. */
  name: string;
}

export function regionOf(draft: RegionDraft, name = draft.data.name): ServedRegion {
  return { draft: reference(draft), key: draft.slug.slice('region:'.length), level: draft.data.level, name };
}

export function stateOf(state: StateInfo): ServedRegion {
  return regionOf(stateRegion(state));
}

const SMALL_WORDS = new Set(['of', 'the', 'and', 'for', 'in', 'on', 'at', 'to', 'a']);

/** `REGENT OF THE UNIVERSITY OF COLORADO` → `Regent of the University of Colorado`. */
export function titleCase(text: string): string {
  return text
    .toLowerCase()
    .split(' ')
    .map((w, i) =>
      i > 0 && SMALL_WORDS.has(w)
        ? w
        : w.replace(/(^|[-(/"])([a-z])/g, (_, p: string, c: string) => p + c.toUpperCase()),
    )
    .join(' ');
}

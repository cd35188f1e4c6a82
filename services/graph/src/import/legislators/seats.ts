import { findState } from '@civicgraph/kit';
import { houseSeat, presidency, senateSeat, vicePresidency, type Seat } from '../shared/federal-offices.js';
import { congressionalRegion } from '../shared/regions.js';
import type { Term } from './record.js';

/**
 * The federal seat a term was served in: `rep` a House seat (district 0 at large, or
 * DC's and the territories' delegate), `sen` a Senate seat by class, `prez`/`viceprez`
 * the executive offices. A reason a data editor can act on when the term names none.
 */
export function seatOfTerm(term: Term): Seat | { reason: string } {
  switch (term.type) {
    case 'prez':
      return presidency();
    case 'viceprez':
      return vicePresidency();
    case 'rep':
    case 'sen':
      return legislativeSeat(term);
    default:
      return { reason: `type "${term.type}" is not rep, sen, prez or viceprez` };
  }
}

function legislativeSeat(term: Term): Seat | { reason: string } {
  const state = term.state === undefined ? undefined : findState(term.state);
  if (state === undefined || !/^[A-Za-z]{2}$/.test(term.state ?? ''))
    return { reason: `state ${JSON.stringify(term.state ?? null)} is not a state` };
  if (term.type === 'sen') {
    if (state.kind !== 'state') return { reason: `${state.name} has no senators` };
    return term.class !== undefined && term.class >= 1 && term.class <= 3
      ? senateSeat(state, term.class)
      : { reason: `class ${JSON.stringify(term.class ?? null)} is not a Senate class (1, 2, 3)` };
  }
  const district = term.district === undefined ? undefined : congressionalRegion(state, String(term.district));
  return district === undefined
    ? { reason: `district ${JSON.stringify(term.district ?? null)} is not a congressional district number` }
    : houseSeat(state, district);
}

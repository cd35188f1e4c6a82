import type { StateInfo } from '@civicgraph/kit';
import { regularSenateClass, SENATE_CLASSES } from '../shared/federal-offices.js';

export { KNOWN_SENATE_SPECIALS } from '../shared/federal-offices.js';

export interface SenateContest {
  senateClass: number;
  type: 'general' | 'special';
}

/**
 * The Senate seat an FEC Senate row runs for: the state's seat of the class elected that
 * cycle, else the special election named in `specials` (state → class).
 */
export function senateContest(
  state: StateInfo,
  cycle: number,
  specials: Readonly<Record<string, number>>,
): SenateContest | { reason: string } {
  const regular = regularSenateClass(cycle);
  if (SENATE_CLASSES[state.usps]?.includes(regular) === true) return { senateClass: regular, type: 'general' };
  const special = specials[state.usps];
  if (special !== undefined && SENATE_CLASSES[state.usps]?.includes(special) === true)
    return { senateClass: special, type: 'special' };
  return {
    reason: `${state.name} has no class ${regular} Senate seat, the class elected in ${cycle}: the row is for a special election or a later cycle (import it with senateSpecials {"${state.usps}": <class>})`,
  };
}

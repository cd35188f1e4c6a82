import type { StateInfo } from '@civicgraph/kit';
import { regularSenateClass, SENATE_CLASSES } from '../shared/federal-offices.js';

export { KNOWN_SENATE_SPECIALS } from '../shared/federal-offices.js';

export interface SenateContest {
  senateClass: number;
  type: 'general' | 'special';
}

/**
 * The Senate seat an FEC Senate row runs for: the state's seat of the class elected that
 * cycle, else the special election named in `specials` (state → class). When a state elects
 * both the same day (Nebraska in 2024), the file does not say which seat a registration
 * seeks: only a sitting senator's own seat (`held`, its class) tells; anyone else's row is
 * refused rather than filed under the wrong seat.
 */
export function senateContest(
  state: StateInfo,
  cycle: number,
  specials: Readonly<Record<string, number>>,
  held?: number,
): SenateContest | { reason: string } {
  const regular = regularSenateClass(cycle);
  const classes: readonly number[] = SENATE_CLASSES[state.usps] ?? [];
  const special = specials[state.usps];
  const general: SenateContest = { senateClass: regular, type: 'general' };
  const bySpecial = special !== undefined && classes.includes(special) ? special : undefined;
  if (!classes.includes(regular)) {
    if (bySpecial !== undefined) return { senateClass: bySpecial, type: 'special' };
    return {
      reason: `${state.name} has no class ${regular} Senate seat, the class elected in ${cycle}: the row is for a special election or a later cycle (import it with senateSpecials {"${state.usps}": <class>})`,
    };
  }
  if (bySpecial === undefined || held === regular) return general;
  if (held === bySpecial) return { senateClass: bySpecial, type: 'special' };
  return {
    reason: `${state.name} elects two Senate seats in ${cycle}, class ${regular} and class ${bySpecial} in a special election, and the FEC file does not say which this registration seeks`,
  };
}

/** A choice's total in a contest, as the winner rules see it. */
export interface Tally {
  key: string;
  votes: number;
  /** Write-ins, scattering, "other": votes for nobody in particular, which cannot win a seat. */
  aggregate: boolean;
}

/** Whether YES passed, from its share of the YES + NO votes; null when that share does not settle it. */
export type PassRule = (yesShare: number) => boolean | null;

/** Passes with more than half; a tie fails. */
export const MAJORITY: PassRule = (share) => share > 0.5;

/** Whatever the threshold, half or less fails; more is undetermined while the threshold is unknown. */
export const UNKNOWN_RULE: PassRule = (share) => (share <= 0.5 ? false : null);

/**
 * Winners of a candidate contest: the `seats` choices with the most votes. A tie across the
 * last seat leaves the tied choices undetermined (null), as does an aggregate (write-ins)
 * among the leaders, since the winner hidden inside it is unknown; a contest with no votes
 * has no winner yet. Returns the winner flag per choice key.
 */
export function candidateWinners(tallies: readonly Tally[], seats: number): Map<string, boolean | null> {
  const ranked = [...tallies].sort((a, b) => b.votes - a.votes);
  const result = new Map<string, boolean | null>(ranked.map((t) => [t.key, false]));
  const total = ranked.reduce((s, t) => s + t.votes, 0);
  const leaders = ranked.slice(0, seats);
  if (total === 0 || leaders.some((t) => t.aggregate)) return new Map(ranked.map((t) => [t.key, null]));
  const cutoff = leaders.at(-1)?.votes;
  const tiedAcross = ranked.length > seats && ranked[seats]!.votes === cutoff;
  for (const t of ranked) {
    if (tiedAcross && t.votes === cutoff) result.set(t.key, null);
    else if (leaders.includes(t)) result.set(t.key, true);
  }
  return result;
}

/** Whether a ballot question (or a judge's retention) passed, as the winner flags of YES and NO. */
export function questionOutcome(yes: number, no: number, rule: PassRule): { yes: boolean | null; no: boolean | null } {
  const total = yes + no;
  if (total === 0) return { yes: null, no: null };
  const passed = rule(yes / total);
  return { yes: passed, no: passed === null ? null : !passed };
}

/**
 * The pass rule for a state's ballot question, from the office text. Colorado: a statute
 * or a judge's retention needs a simple majority; a constitutional amendment at least 55 %
 * (Amendment 71, 2016), except a pure repeal, which needs a majority, and the file does not
 * say which amendments are repeals: 55 % or more passes, half or less fails, in between is
 * left undetermined. Elsewhere thresholds vary (60 % in Florida, …) and are not known here.
 */
export function passRule(state: string, office: string, retention: boolean): PassRule {
  if (state !== 'co') return UNKNOWN_RULE;
  if (retention || /\(STATUTORY\)/.test(office)) return MAJORITY;
  if (/\(CONSTITUTIONAL\)/.test(office)) return (share) => (share >= 0.55 ? true : share <= 0.5 ? false : null);
  return UNKNOWN_RULE;
}

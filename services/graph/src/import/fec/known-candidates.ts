/**
 * What other sources know about an FEC candidate id: the person it belongs to (a sitting
 * member's person node, so the FEC's rows point at it instead of a second person), and the
 * Senate terms that person has served, so a senator's registration for a seat not up in a
 * cycle is not read as a candidacy in it.
 */
export interface KnownCandidate {
  person: string;
  senateTerms?: readonly SenateTerm[];
}

/** One Senate term: `start` and `end` are ISO dates, the end the day the term ends. */
export interface SenateTerm {
  state: string;
  senateClass: number;
  start: string;
  end: string;
}

/** CAND_ID (upper case) → what is known of it. */
export type KnownCandidates = ReadonlyMap<string, KnownCandidate>;

/**
 * The Senate term the person was serving on `day` (an ISO date), if any. A cycle is judged
 * by the seat held on its election day, not by the person's latest term: a senator
 * re-elected that day (Fischer in 2024) was running for the seat they held then, and one
 * elected to a first term that day held no seat yet.
 */
export function senateTermOn(known: KnownCandidate | undefined, day: string): SenateTerm | undefined {
  return known?.senateTerms?.find((t) => t.start <= day && day < t.end);
}

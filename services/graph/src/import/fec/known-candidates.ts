/**
 * What other sources know about an FEC candidate id: the person it belongs to (a sitting
 * member's person node, so the FEC's rows point at it instead of a second person), and the
 * Senate seat that person holds now, so a senator's registration for a seat not up this
 * cycle is not read as a candidacy in it.
 */
export interface KnownCandidate {
  person: string;
  senateSeat?: { state: string; senateClass: number; termEnd: string };
}

/** CAND_ID (upper case) → what is known of it. */
export type KnownCandidates = ReadonlyMap<string, KnownCandidate>;

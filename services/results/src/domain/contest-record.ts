/** One certified result row as the results service keeps it. */
export interface StoredRow {
  /** `result:<key>`. */
  slug: string;
  /** A candidate's name as the source wrote it, or `YES` / `NO` for measures. */
  choice: string;
  /** Slug of the candidacy, when known; '' otherwise. */
  candidacy: string;
  party: string;
  votes: number;
  /** votes / totalVotes, 0..1; null when the total is unknown. */
  share: number | null;
  totalVotes: number | null;
  certified: boolean;
  winner: boolean | null;
  /** Slugs of the provenance records the row is supported by, sorted. */
  provenance: string[];
}

/**
 * A contest's results, with the contest's own scope: the store keeps one record per
 * contest, so answering a contest is one read, and its scope decides who sees it exactly
 * as the graph decides who sees the contest.
 */
export interface ContestRecord {
  contest: string;
  /** The contest's state (lowercase USPS code, '' for national) and tier ('' when none). */
  state: string;
  tier: string;
  /** Most votes first, then by slug. */
  rows: StoredRow[];
}

/** Orders rows as answers list them: most votes first, ties by slug. */
export function byVotes(a: StoredRow, b: StoredRow): number {
  return b.votes - a.votes || a.slug.localeCompare(b.slug);
}

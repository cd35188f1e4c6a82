import type { ContestRecord } from '../domain/contest-record.js';

/** The results service's own store: one record per contest that has result rows. */
export interface ResultsStore {
  /** A contest's record; undefined when the store holds no rows of it. */
  contest(slug: string): Promise<ContestRecord | undefined>;
  /** The contest a result row belongs to, by the row's slug (for events that carry no node). */
  contestOf(resultSlug: string): Promise<string | undefined>;
  /** Replaces one contest's record; undefined removes it. */
  putContest(contest: string, record: ContestRecord | undefined): Promise<void>;
  /** Replaces everything with `records` and records when, in one transaction. */
  replaceAll(records: readonly ContestRecord[], syncedAt: string): Promise<void>;
  /** When the store last held a complete copy; undefined when it never has. */
  syncedAt(): Promise<string | undefined>;
  close(): Promise<void>;
}

import type { ResultRow } from '@civicgraph/protos/civic/graph/v1/graph';
import { byVotes, type ContestRecord, type StoredRow } from '../domain/contest-record.js';

/** The graph's rows (any order, any contests) as one record per contest, rows most votes first. */
export function recordsOf(rows: readonly ResultRow[]): ContestRecord[] {
  const byContest = new Map<string, ContestRecord>();
  for (const r of rows) {
    let record = byContest.get(r.contest);
    if (record === undefined) {
      record = { contest: r.contest, state: r.contestState, tier: r.contestTier, rows: [] };
      byContest.set(r.contest, record);
    }
    record.rows.push(storedRow(r));
  }
  for (const record of byContest.values()) record.rows.sort(byVotes);
  return [...byContest.values()];
}

function storedRow(r: ResultRow): StoredRow {
  return {
    slug: r.slug,
    choice: r.choice,
    candidacy: r.candidacy,
    party: r.party,
    votes: Number(r.votes),
    share: r.share ?? null,
    totalVotes: r.totalVotes === undefined ? null : Number(r.totalVotes),
    certified: r.certified,
    winner: r.winner ?? null,
    provenance: [...r.provenance].sort(),
  };
}

import { LRUCache } from 'lru-cache';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { BallotRequest, BallotResponse } from '@civicgraph/protos/civic/graph/v1/graph';
import { cacheLookups, policyFingerprint } from '@civicgraph/kit';

/** Roughly what a ballot holds on the heap, by what it lists (a guess on the safe side, not a measure). */
function weigh(res: BallotResponse): number {
  const contests = [...res.contests, ...res.unresolved.flatMap((u) => u.contests)];
  const candidacies = contests.reduce((n, c) => n + c.candidacies.length, 0);
  return 1_024 + 4_096 * contests.length + 2_048 * candidacies;
}

/**
 * The graph's ballots by what they depend on: the caller's policy, the districts asked
 * about, the date and the confidence floor. Every point of the same districts has the same
 * ballot, so a point never asked before, in districts asked about, costs the gateway its
 * point lookup and a map lookup here, not a call to the graph (its contest and candidacy
 * queries are the most expensive read it answers, and the call itself costs more here than
 * rendering the ballot). Callers asking at once share one call. REST and GraphQL both ask
 * through it (ballot-lookup.ts).
 *
 * Emptied by any data-change event (cache/invalidator.ts), like the response cache, and
 * never older than the candidacy freshness (five minutes), the fallback when events stop
 * arriving. At most 2,000 ballots and 64 MB by `weigh`. The ballots it hands out are
 * shared between requests: readers only.
 */
export class BallotMemo {
  private readonly answers = new LRUCache<string, Promise<BallotResponse>>({
    max: 2_000,
    maxSize: 64 * 2 ** 20,
    ttl: 300_000,
  });

  answer(principal: Principal, req: BallotRequest, compute: () => Promise<BallotResponse>): Promise<BallotResponse> {
    const key = ballotKey(principal, req);
    const known = this.answers.get(key);
    cacheLookups.inc({ cache: 'ballot', outcome: known === undefined ? 'miss' : 'hit' });
    if (known !== undefined) return known;
    const pending = compute();
    // Weighed as one until it is known; weighed again, or forgotten, when it settles, unless a change emptied the memo meanwhile.
    this.answers.set(key, pending, { size: 1 });
    pending.then(
      (res) => void (this.answers.peek(key) === pending && this.answers.set(key, pending, { size: weigh(res) })),
      () => void (this.answers.peek(key) === pending && this.answers.delete(key)),
    );
    return pending;
  }

  /** Forgets every ballot (the data changed). */
  clear(): void {
    this.answers.clear();
  }

  get size(): number {
    return this.answers.size;
  }
}

/** Everything a ballot depends on; regions in a canonical order, each with the level the caller gave it. */
function ballotKey(principal: Principal, req: BallotRequest): string {
  const regions = req.regions.map((slug, i) => `${slug}=${req.regionLevels[i] ?? ''}`).sort();
  return `${policyFingerprint(principal)}|${req.date}|${req.minConfidence}|${regions.join(',')}`;
}

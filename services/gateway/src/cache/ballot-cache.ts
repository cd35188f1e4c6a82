import type { Candidacy, Contest, UnresolvedRegion } from '@civicgraph/protos/civic/graph/v1/graph';
import { SlugCache } from './slug-cache.js';

/** The graph's contests for a set of regions, and every slug they name (computed once). */
export interface BallotEntry {
  contests: readonly Contest[];
  /** Regions that may hold the point but that no loaded boundary resolves, with their contests. */
  unresolved: readonly UnresolvedRegion[];
  slugs: readonly string[];
  /**
   * Names this entry (and no later one for the same key): the responses rendered from it
   * show its slugs, so the response cache indexes them once, as one group.
   */
  tag: string;
  /**
   * `contests` as the REST ballot of the newest version renders them, UTF-8 JSON, made by
   * the first point that needs it: every other point of these districts sends these same
   * bytes (held once here, not copied into each point's cached response). The entry's key
   * holds the caller's policy, so contact visibility is one per entry.
   */
  restContests?: Buffer;
}

/**
 * The graph's ballot answers by the set of regions asked about, not by point: every point
 * of the same districts has the same ballot, so a point never seen before costs a geo
 * lookup and not a graph query. Keyed by the caller's policy fingerprint, the regions, the
 * date and min_confidence; dropped by the data-change events naming anything in it, and
 * never older than the candidacy freshness (five minutes).
 */
export class BallotCache extends SlugCache<BallotEntry> {
  constructor(maxEntries = 5_000, ttlMs = 300_000, now?: () => number) {
    super(maxEntries, ttlMs, now);
  }

  static key(fingerprint: string, regions: readonly string[], date: string, minConfidence: number): string {
    return `${fingerprint}|${date}|${minConfidence}|${[...regions].sort().join(',')}`;
  }
}

let tags = 0;

/** A tag for a new BallotEntry. */
export function ballotTag(): string {
  tags += 1;
  return `ballot#${tags}`;
}

/** Every slug a ballot answer names: contests, their offices and regions, candidacies and what they cite. */
export function ballotSlugs(contests: readonly Contest[]): string[] {
  const out = new Set<string>();
  for (const c of contests) {
    out.add(c.slug);
    if (c.office !== undefined) out.add(c.office.slug);
    if (c.region !== undefined) out.add(c.region.slug);
    for (const x of c.candidacies) candidacySlugs(x, out);
  }
  return [...out];
}

/** Every slug a candidacy names: itself, its contest, person and party, what it cites. */
export function candidacySlugs(x: Candidacy, out: Set<string> = new Set()): Set<string> {
  out.add(x.slug);
  if (x.contest !== '') out.add(x.contest);
  if (x.person !== undefined) out.add(x.person.slug);
  if (x.party !== undefined) out.add(x.party.slug);
  for (const p of x.positions) out.add(p.slug);
  for (const p of x.provenance) out.add(p.slug);
  return out;
}

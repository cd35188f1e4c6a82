import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { DistrictRole, type Region } from '@civicgraph/protos/civic/geo/v1/geo';
import { policyFingerprint, restLevel } from '@civicgraph/kit';
import { BallotCache, ballotSlugs, ballotTag, type BallotEntry } from './cache/ballot-cache.js';
import type { GeoLookup } from './geo-lookup.js';
import type { GraphUpstream } from './upstream/graph-client.js';

/** A point's ballot: the districts elections use there on the day, and their contests. */
export interface PointBallot {
  electing: readonly Region[];
  entry: BallotEntry;
}

/**
 * Ballots at a point, shared by REST and GraphQL (one cache, same answers): the point's
 * districts from the geo lookup (the electing ones during redistricting), then the graph's
 * contests for that set of districts, cached by it (see BallotCache).
 */
export class BallotLookup {
  constructor(
    private readonly points: GeoLookup,
    private readonly graph: GraphUpstream,
    readonly cache: BallotCache,
  ) {}

  async ballotAtPoint(principal: Principal, lat: number, lng: number, date: string, minConfidence: number): Promise<PointBallot> {
    const { entry: districts } = await this.points.districtsAtPoint(principal, lat, lng, date);
    const electing = districts.regions.filter((r) => r.roles.length === 0 || r.roles.includes(DistrictRole.DISTRICT_ROLE_ELECTING));
    const regions = electing.map((r) => r.slug);
    const key = BallotCache.key(policyFingerprint(principal), regions, date, minConfidence);
    let entry = this.cache.get(key);
    if (entry === undefined) {
      const generation = this.cache.mark();
      const regionLevels = electing.map((r) => restLevel(r.level));
      const { contests, unresolved } = await this.graph.ballot(principal, { regions, regionLevels, date, minConfidence });
      const slugs = [...regions, ...ballotSlugs(contests), ...ballotSlugs(unresolved.flatMap((u) => u.contests)), ...unresolved.flatMap((u) => (u.region === undefined ? [] : [u.region.slug]))];
      entry = { contests, unresolved, slugs: [...new Set(slugs)], tag: ballotTag() };
      this.cache.set(key, entry, entry.slugs, generation);
    }
    return { electing, entry };
  }
}

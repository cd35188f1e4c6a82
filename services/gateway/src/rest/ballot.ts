import { DistrictRole } from '@civicgraph/protos/civic/geo/v1/geo';
import { assertCoordinate, contactVisible, policyFingerprint } from '@civicgraph/kit';
import { BallotCache, ballotSlugs, ballotTag } from '../cache/ballot-cache.js';
import type { Router } from 'express';
import type { GeoLookup } from '../geo-lookup.js';
import type { GraphUpstream } from '../upstream/graph-client.js';
import { Indexed, mountCached, Serialized, type Endpoint, type RouteDeps } from './endpoint.js';
import { ballotChunks, ballotView } from './resources/ballot.js';
import { dateOr, P } from './schema/params.js';

export const BALLOT_ENDPOINTS = {
  get: {
    operationId: 'getBallot',
    path: '/v1/ballot',
    tag: 'Ballot',
    summary: 'The full ballot for a point on a date',
    description: 'Resolves the point against the district maps elections use on the date (during redistricting, the electing map, not the serving one), then lists every contest on the ballot there that day, national first, each with its candidacies. Needs the `geography` entitlement.',
    params: [P.lat, P.lng, P.date('Election day'), P.minConfidence, P.singlePageCursor],
    response: 'Ballot',
    cache: 'candidacy',
    errors: ['invalid_parameter', 'entitlement_required'],
  },
} satisfies Record<string, Endpoint>;

export function ballot(router: Router, lookup: GeoLookup, graph: GraphUpstream, byRegions: BallotCache, deps: RouteDeps): void {
  mountCached(router, BALLOT_ENDPOINTS.get, deps, async (params, principal, version) => {
    const lat = assertCoordinate('lat', params['lat'] as number);
    const lng = assertCoordinate('lng', params['lng'] as number);
    const date = dateOr(params, 'date');
    const { entry } = await lookup.districtsAtPoint(principal, lat, lng, date);
    const electing = entry.regions.filter((r) => r.roles.length === 0 || r.roles.includes(DistrictRole.DISTRICT_ROLE_ELECTING));
    const regions = electing.map((r) => r.slug);
    const minConfidence = params['min_confidence'] as number;
    const key = BallotCache.key(policyFingerprint(principal), regions, date, minConfidence);
    let ballot = byRegions.get(key);
    if (ballot === undefined) {
      const generation = byRegions.mark();
      const { contests } = await graph.ballot(principal, { regions, date, minConfidence });
      ballot = { contests, slugs: [...new Set([...regions, ...ballotSlugs(contests)])], tag: ballotTag() };
      byRegions.set(key, ballot, ballot.slugs, generation);
    }
    // The slugs are known: the response cache need not walk the 20-30 KB body for them.
    if (deps.versions.isLatest(version)) return new Serialized(ballotChunks({ lat, lng }, date, electing, ballot, contactVisible(principal)), ballot.slugs, ballot.tag);
    return new Indexed(ballotView({ lat, lng }, date, electing, ballot.contests, contactVisible(principal)), ballot.slugs, ballot.tag);
  });
}

import { assertCoordinate, contactVisible } from '@civicgraph/kit';
import type { Router } from 'express';
import type { BallotLookup } from '../ballot-lookup.js';
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

export function ballot(router: Router, ballots: BallotLookup, deps: RouteDeps): void {
  mountCached(router, BALLOT_ENDPOINTS.get, deps, async (params, principal, version) => {
    const lat = assertCoordinate('lat', params['lat'] as number);
    const lng = assertCoordinate('lng', params['lng'] as number);
    const date = dateOr(params, 'date');
    const { electing, entry } = await ballots.ballotAtPoint(principal, lat, lng, date, params['min_confidence'] as number);
    // The slugs are known: the response cache need not walk the 20-30 KB body for them.
    if (deps.versions.isLatest(version)) return new Serialized(ballotChunks({ lat, lng }, date, electing, entry, contactVisible(principal)), entry.slugs, entry.tag);
    return new Indexed(ballotView({ lat, lng }, date, electing, entry, contactVisible(principal)), entry.slugs, entry.tag);
  });
}

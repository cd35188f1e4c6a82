import { assertCoordinate, contactVisible } from '@civicgraph/kit';
import { ballotAtPoint } from '../ballot-lookup.js';
import type { Endpoint } from './endpoint.js';
import { ballotView } from './resources/ballot.js';
import { dateOr, P } from './schema/params.js';

export const BALLOT_ENDPOINTS = {
  get: {
    operationId: 'getBallot',
    path: '/v1/ballot',
    tag: 'Ballot',
    summary: 'The full ballot for a point on a date',
    description:
      'Resolves the point against the district maps elections use on the date (during redistricting, the electing map, not the serving one), then lists every contest on the ballot there that day, national first, each with its candidacies. Needs the `geography` entitlement.',
    params: [P.lat, P.lng, P.date('Election day'), P.minConfidence, P.singlePageCursor],
    response: 'Ballot',
    cache: 'candidacy',
    errors: ['invalid_parameter', 'entitlement_required'],
    answer: (upstream) => async (params, principal) => {
      const lat = assertCoordinate('lat', params['lat'] as number);
      const lng = assertCoordinate('lng', params['lng'] as number);
      const date = dateOr(params, 'date');
      const found = await ballotAtPoint(upstream, principal, lat, lng, date, params['min_confidence'] as number);
      return ballotView({ lat, lng }, date, found.electing, found, contactVisible(principal));
    },
  },
} satisfies Record<string, Endpoint>;

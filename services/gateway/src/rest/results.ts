import type { Router } from 'express';
import type { ResultsUpstream } from '../upstream/graph-client.js';
import { mountCached, type Answer, type Endpoint, type RouteDeps } from './endpoint.js';
import { str } from './list.js';
import { resultsView } from './resources/results.js';
import { P } from './schema/params.js';

export const RESULTS_ENDPOINTS = {
  get: {
    operationId: 'getResults',
    path: '/v1/results',
    tag: 'Results',
    summary: 'Certified results of a contest',
    description:
      "Every choice's votes and vote share in one contest, most votes first, with the provenance of the returns. `min_confidence` is accepted for uniformity; results carry no confidence score, so it filters nothing.",
    params: [P.contest(true), P.minConfidence, P.singlePageCursor],
    response: 'ContestResults',
    cache: 'candidacy',
    errors: ['invalid_parameter', 'not_found'],
  },
} satisfies Record<string, Endpoint>;

export function results(router: Router, upstream: ResultsUpstream, deps: RouteDeps): void {
  mountCached(router, RESULTS_ENDPOINTS.get, deps, resultsAnswer(upstream));
}

/** The body of /v1/results (also the agent's results). */
export function resultsAnswer(upstream: ResultsUpstream): Answer {
  return async (params, principal) => resultsView(await upstream.contestResults(principal, str(params, 'contest')));
}

import type { Endpoint } from './endpoint.js';
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
    answer:
      ({ results }) =>
      async (params, principal) =>
        resultsView(await results.contestResults(principal, str(params, 'contest'))),
  },
} satisfies Record<string, Endpoint>;

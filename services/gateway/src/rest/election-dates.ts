import type { Endpoint } from './endpoint.js';
import { LIST_PARAMS, listBody, pageOf, str } from './list.js';
import { electionDateView } from './resources/election-date.js';
import { P } from './schema/params.js';

export const ELECTION_DATE_ENDPOINTS = {
  list: {
    operationId: 'listElectionDates',
    path: '/v1/election_dates',
    tag: 'Elections',
    summary: 'Upcoming election dates',
    description:
      'Election days in a state (national ones included) from `from` (default today) to `to`, soonest first. `min_confidence` is accepted for uniformity and filters nothing here.',
    params: [P.state(true), P.from, P.to, ...LIST_PARAMS],
    response: 'ElectionDateList',
    cache: 'candidacy',
    errors: ['invalid_parameter'],
    answer:
      ({ graph }) =>
      async (params, principal) => {
        const page = await graph.listElectionDates(principal, {
          state: str(params, 'state'),
          from: str(params, 'from'),
          to: str(params, 'to'),
          page: pageOf(params),
        });
        return listBody(page.data.map(electionDateView), page.nextCursor);
      },
  },
} satisfies Record<string, Endpoint>;

import { contactVisible } from '@civicgraph/kit';
import type { Endpoint } from './endpoint.js';
import { LIST_PARAMS, listBody, pageOf, str } from './list.js';
import { officeholderView } from './resources/officeholder.js';
import { P } from './schema/params.js';

export const OFFICEHOLDER_ENDPOINTS = {
  list: {
    operationId: 'listOfficeholders',
    path: '/v1/officeholders',
    tag: 'Officeholders',
    summary: 'Who holds an office',
    description:
      'The terms in force on the date (default today) of an office, or of every office serving a region and the regions within it (name at least one): a state lists its statewide officers, legislators, members of Congress, county and city officers; another region its own offices and those of regions stored as lying within it. Contact fields appear only for keys with the `contact` entitlement. `min_confidence` is accepted for uniformity; officeholder terms carry no confidence score yet, so it filters nothing.',
    params: [P.office, P.region, P.date('The day asked about'), ...LIST_PARAMS],
    response: 'OfficeholderList',
    cache: 'candidacy',
    errors: ['invalid_parameter'],
    answer:
      ({ graph }) =>
      async (params, principal) => {
        const page = await graph.listOfficeholders(principal, {
          office: str(params, 'office'),
          region: str(params, 'region'),
          date: str(params, 'date'),
          page: pageOf(params),
        });
        const showContact = contactVisible(principal);
        return listBody(
          page.data.map((o) => officeholderView(o, showContact)),
          page.nextCursor,
        );
      },
  },
} satisfies Record<string, Endpoint>;

import { contactVisible } from '@civicgraph/kit';
import type { Endpoint } from './endpoint.js';
import { LIST_PARAMS, listBody, pageOf, str } from './list.js';
import { candidacyView } from './resources/candidacy.js';
import { P } from './schema/params.js';

export const CANDIDACY_ENDPOINTS = {
  list: {
    operationId: 'listCandidacies',
    path: '/v1/candidacies',
    tag: 'Candidacies',
    summary: 'Candidacies, filtered',
    description:
      'Candidacies of a contest, a state and/or a party (name at least one), highest confidence first within a contest. Contact fields appear only for keys with the `contact` entitlement.',
    params: [P.contest(false), P.state(false), P.party, ...LIST_PARAMS],
    response: 'CandidacyList',
    cache: 'candidacy',
    errors: ['invalid_parameter'],
    answer:
      ({ graph }) =>
      async (params, principal) => {
        const page = await graph.listCandidacies(principal, {
          contest: str(params, 'contest'),
          state: str(params, 'state'),
          party: str(params, 'party'),
          minConfidence: params['min_confidence'] as number,
          page: pageOf(params),
        });
        const showContact = contactVisible(principal);
        return listBody(
          page.data.map((c) => candidacyView(c, showContact)),
          page.nextCursor,
        );
      },
  },
  get: {
    operationId: 'getCandidacy',
    path: '/v1/candidacies/{slug}',
    tag: 'Candidacies',
    summary: 'One candidacy',
    description:
      "A candidacy with its provenance and per-field confidence. A candidacy outside the key's scope, or below `min_confidence`, is a 404.",
    params: [
      P.slug('candidacy', 'candidacy:co-cd-1-us-representative-2026-general-diana-degette'),
      P.minConfidence,
      P.singlePageCursor,
    ],
    response: 'Candidacy',
    cache: 'candidacy',
    errors: ['invalid_parameter', 'not_found'],
    answer:
      ({ graph }) =>
      async (params, principal) =>
        candidacyView(
          await graph.getCandidacy(principal, str(params, 'slug'), params['min_confidence'] as number),
          contactVisible(principal),
        ),
  },
} satisfies Record<string, Endpoint>;

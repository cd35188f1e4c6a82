import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { ChoiceResult, ContestResultsResponse } from '@civicgraph/protos/civic/results/v1/results';
import type { ResultsUpstream } from '../../upstream/graph-client.js';
import { touch, type GraphQLContext } from '../context.js';
import { orAbsent, typed } from '../errors.js';
import { subschemaSdl } from './sdl.js';

/** The GraphQL shape of a contest's results; null when the contest has none (or is not visible). */
function resultsView(r: ContestResultsResponse | null) {
  if (r === null || r.results.length === 0) return null;
  return {
    certified: r.certified,
    totalVotes: r.totalVotes === undefined ? null : Number(r.totalVotes),
    choices: r.results.map((c: ChoiceResult) => ({
      slug: c.slug,
      choice: c.choice,
      candidacy: c.candidacy === '' ? null : c.candidacy,
      party: c.party === '' ? null : c.party,
      votes: Number(c.votes),
      share: c.share ?? null,
      winner: c.winner ?? null,
    })),
    provenance: r.provenance,
  };
}

/**
 * The results subschema: SDL from protos/graphql/results.graphql, adding `results` to the
 * graph's Contest through type merging (`_contestResults`, every contest of a request in
 * one delegation; the results service answers one contest per call).
 */
export function resultsSubschema(results: ResultsUpstream): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: subschemaSdl('results'),
    resolvers: {
      Query: {
        _contestResults: typed(async (_: unknown, args: { slugs: string[] }, ctx: GraphQLContext) =>
          Promise.all(
            args.slugs.map(async (slug) => {
              touch(ctx, [slug]);
              return { slug, results: resultsView(await orAbsent(results.contestResults(ctx.principal, slug))) };
            }),
          ),
        ),
      },
    },
  });
}

import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type {
  Candidacy,
  Contest,
  Office,
  Officeholder,
  PageRequest,
  RegionRef,
} from '@civicgraph/protos/civic/graph/v1/graph';
import { assertCoordinate, graphqlLevel, levelFromRest } from '@civicgraph/kit';
import { ballotAtPoint } from '../../ballot-lookup.js';
import type { GeoUpstream } from '../../upstream/geo-client.js';
import type { GraphUpstream } from '../../upstream/graph-client.js';
import { touch, type GraphQLContext } from '../context.js';
import { emptyAsNull, orAbsent, typed } from '../errors.js';
import { DateScalar, EmailAddressScalar, StateCodeScalar, UrlScalar } from '../scalars.js';
import { orNull } from '../../rest/schema/json-schema.js';
import { subschemaSdl } from './sdl.js';

/** Most contests `contests` answers (five pages of the graph's largest). */
const MAX_LISTED_CONTESTS = 1_000;

/** A contest as resolvers pass it on: `listed` when it came from a list, without its candidacies. */
type ContestSource = Contest & { listed?: boolean };
/** A candidacy with the contest it was found in, when known. */
type CandidacySource = Candidacy & { parent?: ContestSource };

const upper = (word: string): string | null => (word === '' ? null : word.toUpperCase().replaceAll('-', '_'));
/** A REST level word as the GraphQL enum value. */
const levelOf = (word: string): string | null => {
  const level = levelFromRest(word);
  return level === undefined ? null : graphqlLevel(level);
};

/** The contest with `slug` for this request, fetched once; null when missing or out of scope. */
function contestOnce(
  graph: GraphUpstream,
  ctx: GraphQLContext,
  slug: string,
  minConfidence: number,
): Promise<Contest | null> {
  const key = `${slug}|${minConfidence}`;
  let pending = ctx.contests.get(key);
  if (pending === undefined) {
    pending = orAbsent(
      graph.getContest(ctx.principal, slug, minConfidence).then((contest) => {
        touch(ctx, contest);
        return contest;
      }),
    );
    ctx.contests.set(key, pending);
  }
  return pending;
}

/** Every page of a list, up to MAX_LISTED_CONTESTS items. */
async function allPages<T>(
  ctx: GraphQLContext,
  list: (page: PageRequest) => Promise<{ data: T[]; nextCursor: string }>,
): Promise<T[]> {
  const out: T[] = [];
  let cursor = '';
  do {
    const page = await list({ cursor, limit: 200 });
    out.push(...page.data);
    touch(ctx, page.data);
    cursor = page.nextCursor;
  } while (cursor !== '' && out.length < MAX_LISTED_CONTESTS);
  return out.slice(0, MAX_LISTED_CONTESTS);
}

/**
 * The graph subschema: SDL from protos/graphql/graph.graphql, resolvers over the graph
 * service (and the shared ballot lookup, so GraphQL and REST ballots are the same answers).
 */
export function graphSubschema(upstream: { geo: GeoUpstream; graph: GraphUpstream }): GraphQLSchema {
  const { graph } = upstream;
  return makeExecutableSchema({
    typeDefs: subschemaSdl('graph'),
    resolvers: {
      Date: DateScalar,
      StateCode: StateCodeScalar,
      URL: UrlScalar,
      EmailAddress: EmailAddressScalar,
      Query: {
        contests: typed(
          async (
            _: unknown,
            args: { state: string; level?: string | null; electionDate?: string | null; minConfidence: number },
            ctx: GraphQLContext,
          ): Promise<ContestSource[]> => {
            const level = args.level == null ? '' : args.level.toLowerCase().replaceAll('_', '-');
            const contests = await allPages(ctx, (page) =>
              graph.listContests(ctx.principal, {
                state: args.state,
                level,
                date: args.electionDate ?? '',
                minConfidence: args.minConfidence,
                page,
              }),
            );
            return contests.map((c) => ({ ...c, listed: true }));
          },
        ),
        contest: typed(async (_: unknown, args: { slug: string; minConfidence: number }, ctx: GraphQLContext) =>
          contestOnce(graph, ctx, args.slug, args.minConfidence),
        ),
        candidacy: typed(async (_: unknown, args: { slug: string; minConfidence: number }, ctx: GraphQLContext) => {
          const candidacy = await orAbsent(graph.getCandidacy(ctx.principal, args.slug, args.minConfidence));
          touch(ctx, candidacy);
          return candidacy;
        }),
        officeholders: typed(
          (
            _: unknown,
            args: { office?: string | null; region?: string | null; date?: string | null },
            ctx: GraphQLContext,
          ) =>
            allPages(ctx, (page) =>
              graph.listOfficeholders(ctx.principal, {
                office: args.office ?? '',
                region: args.region ?? '',
                date: args.date ?? '',
                page,
              }),
            ),
        ),
        ballotAtPoint: typed(
          async (
            _: unknown,
            args: { lat: number; lng: number; date: string; minConfidence: number },
            ctx: GraphQLContext,
          ) => {
            const lat = assertCoordinate('lat', args.lat);
            const lng = assertCoordinate('lng', args.lng);
            const ballot = await ballotAtPoint(upstream, ctx.principal, lat, lng, args.date, args.minConfidence);
            touch(ctx, ballot);
            return ballot.contests;
          },
        ),
        unresolvedAtPoint: typed(
          async (_: unknown, args: { lat: number; lng: number; date: string }, ctx: GraphQLContext) => {
            const lat = assertCoordinate('lat', args.lat);
            const lng = assertCoordinate('lng', args.lng);
            const ballot = await ballotAtPoint(upstream, ctx.principal, lat, lng, args.date, 0);
            touch(ctx, ballot);
            return ballot.unresolved;
          },
        ),
      },
      Contest: {
        ...emptyAsNull('date', 'state'),
        type: (c: Contest) => upper(c.type),
        level: (c: Contest) => levelOf(c.level),
        candidacies: typed(
          async (
            c: ContestSource,
            args: { minConfidence: number },
            ctx: GraphQLContext,
          ): Promise<CandidacySource[]> => {
            // Lists leave candidacies out; such a contest is fetched (once per request).
            const full = c.listed === true ? await contestOnce(graph, ctx, c.slug, args.minConfidence) : c;
            return (full?.candidacies ?? [])
              .filter((x) => x.confidence >= args.minConfidence)
              .map((x) => ({ ...x, parent: c }));
          },
        ),
      },
      Office: {
        level: (o: Office) => levelOf(o.level),
        tier: (o: Office) => upper(o.tier),
      },
      Region: { ...emptyAsNull('fips', 'ocdId'), level: (r: RegionRef) => levelOf(r.level) },
      Candidacy: {
        person: (c: Candidacy) => c.person ?? { slug: '', name: c.name },
        contest: typed(
          async (c: CandidacySource, _: unknown, ctx: GraphQLContext) =>
            c.parent ?? contestOnce(graph, ctx, c.contest, 0),
        ),
        party: (c: Candidacy) => c.party ?? null,
        isIncumbent: (c: Candidacy) => c.isIncumbent ?? null,
        ...emptyAsNull('filingStatus', 'ballotAccess', 'campaignWebsite'),
        // The schema of a key without `contact` has no such fields; the graph service also
        // leaves them empty for it (contact_included false), so nothing could leak here.
        campaignEmails: (c: Candidacy) => (c.contactIncluded ? c.campaignEmails : []),
        campaignPhones: (c: Candidacy) => (c.contactIncluded ? c.campaignPhones : []),
        campaignTeam: (c: Candidacy) => (c.contactIncluded ? c.campaignTeam : []),
        fieldConfidence: (c: Candidacy) => c.fields,
      },
      Officeholder: {
        party: (o: Officeholder) => o.party ?? null,
        termStart: (o: Officeholder) => orNull(o.start),
        termEnd: (o: Officeholder) => orNull(o.end),
        // As for a candidacy: the schema of a key without `contact` has no such fields, and the
        // graph service leaves them empty for it (contact_included false).
        contactOffices: (o: Officeholder) => (o.contactIncluded ? o.contactOffices : []),
        contactEmails: (o: Officeholder) => (o.contactIncluded ? o.contactEmails : []),
        contactLinks: (o: Officeholder) => (o.contactIncluded ? o.contactLinks : []),
      },
      ContactOffice: emptyAsNull('kind', 'address', 'voice', 'fax'),
      ContactLink: emptyAsNull('note'),
      Party: emptyAsNull('abbreviation'),
      Position: emptyAsNull('summary'),
      Provenance: emptyAsNull('url', 'publisher', 'licence', 'retrievedAt'),
      TeamContact: emptyAsNull('name', 'email', 'phone'),
    },
  });
}

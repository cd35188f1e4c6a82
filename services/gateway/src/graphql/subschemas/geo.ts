import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { DistrictRole, type Region } from '@civicgraph/protos/civic/geo/v1/geo';
import { assertCoordinate, graphqlLevel, todayUtc } from '@civicgraph/kit';
import { DateScalar, JsonScalar } from '../scalars.js';
import type { GeoUpstream } from '../../upstream/geo-client.js';
import { touch, type GraphQLContext } from '../context.js';
import { emptyAsNull, orAbsent, typed } from '../errors.js';
import { fetchOutline } from '../geometry-cost.js';
import { subschemaSdl } from './sdl.js';

/** The geo subschema: SDL from protos/graphql, resolvers over the geo service. */
export function geoSubschema(geo: GeoUpstream): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: subschemaSdl('geo'),
    resolvers: {
      Date: DateScalar,
      JSON: JsonScalar,
      Query: {
        districtsAtPoint: typed(
          async (_: unknown, args: { lat: number; lng: number; date?: string | null }, ctx: GraphQLContext) => {
            const lat = assertCoordinate('lat', args.lat);
            const lng = assertCoordinate('lng', args.lng);
            const { regions } = await geo.districtsAtPoint(ctx.principal, lat, lng, args.date ?? todayUtc());
            touch(
              ctx,
              regions.map((r) => r.slug),
            );
            return regions;
          },
        ),
        _regions: typed(async (_: unknown, args: { slugs: string[] }, ctx: GraphQLContext) => {
          touch(ctx, args.slugs);
          const found = new Map((await geo.getRegions(ctx.principal, args.slugs, '')).map((r) => [r.slug, r]));
          return args.slugs.map((slug) => found.get(slug) ?? null);
        }),
        region: typed(async (_: unknown, args: { slug: string; date?: string | null }, ctx: GraphQLContext) => {
          touch(ctx, [args.slug]);
          return (await orAbsent(geo.getRegion(ctx.principal, args.slug, args.date ?? todayUtc())))?.region ?? null;
        }),
      },
      Region: {
        ...emptyAsNull('fips', 'ocdId', 'validFrom', 'validTo', 'source'),
        level: (r: Region) => graphqlLevel(r.level),
        population: (r: Region) => (r.population === undefined ? null : Number(r.population)),
        roles: (r: Region) => r.roles.map((role) => (DistrictRole[role] ?? '').slice('DISTRICT_ROLE_'.length)),
        precision: (r: Region) => r.precision.toUpperCase(),
        scaleDenominator: (r: Region) => (r.scaleDenominator === 0 ? null : r.scaleDenominator),
        // This version's outline: a day only it covers picks it out among the slug's versions —
        // its own valid_from, or for an undated version a newer map has ended, a day long before.
        boundary: typed(async (r: Region, args: { simplify: number }, ctx: GraphQLContext) => {
          const day = r.validFrom !== '' ? r.validFrom : r.validTo !== '' ? '1000-01-01' : todayUtc();
          const b = await fetchOutline(ctx, args.simplify, () =>
            geo.getBoundary(ctx.principal, r.slug, day, args.simplify),
          );
          return JSON.parse(b.geometryJson) as unknown;
        }),
      },
    },
  });
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { DistrictRole, type Region } from '@civicgraph/protos/civic/geo/v1/geo';
import { assertCoordinate, graphqlLevel, todayUtc } from '@civicgraph/kit';
import { DateScalar } from '../scalars.js';
import type { GeoLookup } from '../../geo-lookup.js';
import type { GraphQLContext } from '../context.js';
import { typed } from '../errors.js';

const sdl = readFileSync(createRequire(import.meta.url).resolve('@civicgraph/protos/graphql/geo.graphql'), 'utf8');

/** The geo subschema: SDL from protos/graphql, resolvers over the shared GeoLookup. */
export function geoSubschema(lookup: GeoLookup): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: sdl,
    resolvers: {
      Date: DateScalar,
      Query: {
        districtsAtPoint: typed(async (_: unknown, args: { lat: number; lng: number; date?: string | null }, ctx: GraphQLContext) => {
          const lat = assertCoordinate('lat', args.lat);
          const lng = assertCoordinate('lng', args.lng);
          return (await lookup.districtsAtPoint(ctx.principal, lat, lng, args.date ?? todayUtc())).entry.regions;
        }),
      },
      Region: {
        level: (r: Region) => graphqlLevel(r.level),
        fips: (r: Region) => (r.fips === '' ? null : r.fips),
        population: (r: Region) => (r.population === undefined ? null : Number(r.population)),
        ocdId: (r: Region) => (r.ocdId === '' ? null : r.ocdId),
        roles: (r: Region) => r.roles.map((role) => (DistrictRole[role] ?? '').slice('DISTRICT_ROLE_'.length)),
        validFrom: (r: Region) => (r.validFrom === '' ? null : r.validFrom),
        validTo: (r: Region) => (r.validTo === '' ? null : r.validTo),
      },
    },
  });
}

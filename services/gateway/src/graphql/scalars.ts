import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { isIsoDate } from '@civicgraph/kit';

function asDate(value: unknown): string {
  if (typeof value === 'string' && isIsoDate(value)) return value;
  throw new GraphQLError(`Date must be a calendar date written YYYY-MM-DD, got ${JSON.stringify(value)}.`, {
    extensions: { type: 'invalid_parameter', field: 'date', status: 400 },
  });
}

/** `JSON`: any JSON value, passed through. */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Arbitrary JSON; used for GeoJSON geometries.',
  serialize: (v) => v,
  parseValue: (v) => v,
});

/** `Date`: an ISO 8601 calendar date, `YYYY-MM-DD`, checked as a real date. */
export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'A calendar date, `YYYY-MM-DD` (ISO 8601).',
  serialize: asDate,
  parseValue: asDate,
  parseLiteral: (ast) => asDate(ast.kind === Kind.STRING ? ast.value : undefined),
});

import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { isIsoDate, STATES_BY_USPS } from '@civicgraph/kit';

/**
 * A scalar's refusal. A plain error, so graphql-js wraps it with the value's location (a
 * literal) or the variable's name (a variable), which the gateway turns into
 * `invalid_parameter` naming the argument or `variables`.
 */
function refuse(message: string): never {
  throw new TypeError(message);
}

/**
 * A scalar of strings: input is checked by `check` (which may normalise) and refused as
 * `invalid_parameter`; output is the stored text as REST gives it, since a source's value
 * is data to show, not input to refuse.
 */
function stringScalar(
  name: string,
  description: string,
  check: (value: string) => string | undefined,
  expected: string,
): GraphQLScalarType {
  const parse = (value: unknown): string => {
    const checked = typeof value === 'string' && value.length <= 2_048 ? check(value) : undefined;
    if (checked === undefined) refuse(`${name} must be ${expected}, got ${JSON.stringify(value)?.slice(0, 80)}.`);
    return checked;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: (value) => String(value),
    parseValue: parse,
    parseLiteral: (ast: ValueNode) => parse(ast.kind === Kind.STRING ? ast.value : undefined),
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
export const DateScalar = stringScalar(
  'Date',
  'A calendar date, `YYYY-MM-DD` (ISO 8601).',
  (v) => (isIsoDate(v) ? v : undefined),
  'a calendar date written YYYY-MM-DD',
);

/** `StateCode`: a USPS code in either case, given back lowercase (as REST writes it). */
export const StateCodeScalar = stringScalar(
  'StateCode',
  'A US state by its USPS code (`CO` or `co`); answered lowercase, as REST answers.',
  (v) => (STATES_BY_USPS.has(v.toLowerCase()) ? v.toLowerCase() : undefined),
  'a two-letter USPS state code such as CO',
);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `EmailAddress`: `local@domain.tld`, no spaces. */
export const EmailAddressScalar = stringScalar(
  'EmailAddress',
  'An email address (`local@domain`).',
  (v) => (EMAIL.test(v) ? v : undefined),
  'an email address such as press@example.org',
);

/** `URL`: an absolute http or https URL. */
export const UrlScalar = stringScalar(
  'URL',
  'An absolute http(s) URL.',
  (v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:' ? v : undefined;
    } catch {
      return undefined;
    }
  },
  'an absolute http(s) URL',
);

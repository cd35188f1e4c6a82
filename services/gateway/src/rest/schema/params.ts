import { InvalidParameterError, isIsoDate, LEVELS, restLevel, STATES_BY_USPS, todayUtc } from '@civicgraph/kit';
import type { NumberSchema, StringSchema } from './json-schema.js';

/** One query or path parameter: its schema validates requests and documents the API. */
export interface ParamSpec {
  name: string;
  in: 'query' | 'path';
  description: string;
  required: boolean;
  schema: StringSchema | NumberSchema;
  example?: string | number;
}

/** A parsed parameter: numbers as numbers, the rest as (normalised) strings. */
export type ParamValue = string | number;

/** The parsed parameters of one request, by name; absent optional ones are undefined. */
export type Params = Readonly<Record<string, ParamValue | undefined>>;

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
/** Longest value any parameter accepts; longer ones are refused before anything else. */
export const MAX_PARAM_LENGTH = 2_048;

/**
 * Reads `specs` from a query string (and path parameters): an unknown or repeated parameter,
 * a missing required one and a value its schema refuses each fail with a 400 naming it.
 */
export function readParams(
  specs: readonly ParamSpec[],
  query: Record<string, unknown>,
  path: Record<string, string> = {},
): Params {
  const known = queryNames(specs);
  for (const name of Object.keys(query)) {
    if (!known.has(name)) {
      throw new InvalidParameterError(
        name.slice(0, 100),
        `Unknown parameter "${name.slice(0, 100)}". Accepted: ${[...known.keys()].join(', ') || 'none'}.`,
      );
    }
  }
  const out: Record<string, ParamValue | undefined> = {};
  for (const spec of specs) {
    const raw = spec.in === 'path' ? path[spec.name] : query[spec.name];
    if (raw !== undefined && typeof raw !== 'string') {
      throw new InvalidParameterError(spec.name, `${spec.name} must be given once, as a plain value.`);
    }
    out[spec.name] = parseValue(spec, raw);
  }
  return out;
}

/** The query parameters of each endpoint's specs, listed once per specs list: read on every request. */
const queryNamesOf = new WeakMap<readonly ParamSpec[], ReadonlySet<string>>();

function queryNames(specs: readonly ParamSpec[]): ReadonlySet<string> {
  let names = queryNamesOf.get(specs);
  if (names === undefined) {
    names = new Set(specs.filter((s) => s.in === 'query').map((s) => s.name));
    queryNamesOf.set(specs, names);
  }
  return names;
}

function parseValue(spec: ParamSpec, raw: string | undefined): ParamValue | undefined {
  const { name, schema } = spec;
  if (raw === undefined || raw.trim() === '') {
    if (spec.required) throw new InvalidParameterError(name, `${name} is required.`);
    if (raw !== undefined) throw new InvalidParameterError(name, `${name} must not be empty; leave it out instead.`);
    return schema.default;
  }
  if (raw.length > MAX_PARAM_LENGTH)
    throw new InvalidParameterError(name, `${name} is longer than ${MAX_PARAM_LENGTH} characters.`);
  if (spec === SINGLE_PAGE_CURSOR)
    throw new InvalidParameterError(name, 'This endpoint returns a single page; there is no cursor to continue from.');
  const shown = raw.length > 64 ? `${raw.slice(0, 64)}…` : raw;
  if (schema.type === 'number' || schema.type === 'integer') {
    const pattern = schema.type === 'integer' ? INTEGER : DECIMAL;
    const n = pattern.test(raw.trim()) ? Number(raw) : Number.NaN;
    const what = schema.type === 'integer' ? 'a whole number' : 'a decimal number';
    if (!Number.isFinite(n)) throw new InvalidParameterError(name, `${name} must be ${what}, got "${shown}".`);
    const { minimum = -Infinity, maximum = Infinity } = schema;
    if (n < minimum || n > maximum)
      throw new InvalidParameterError(name, `${name} must be between ${minimum} and ${maximum}, got ${shown}.`);
    return n;
  }
  return parseString(spec, schema as StringSchema, raw, shown);
}

function parseString(spec: ParamSpec, schema: StringSchema, raw: string, shown: string): string {
  const { name } = spec;
  if (schema.format === 'date' && !isIsoDate(raw)) {
    throw new InvalidParameterError(name, `${name} must be a calendar date written YYYY-MM-DD, got "${shown}".`);
  }
  if (schema.maxLength !== undefined && raw.length > schema.maxLength) {
    throw new InvalidParameterError(name, `${name} must be at most ${schema.maxLength} characters.`);
  }
  if (schema.enum !== undefined) {
    const value = raw.toLowerCase();
    if (!schema.enum.includes(value)) {
      const listed =
        schema.enum.length <= 12
          ? schema.enum.join(', ')
          : `the ${schema.enum.length} values in the API reference, e.g. ${schema.enum.slice(0, 3).join(', ')}`;
      throw new InvalidParameterError(name, `${name} must be one of ${listed}; got "${shown}".`);
    }
    return value;
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(raw)) {
    throw new InvalidParameterError(
      name,
      `${name} must match ${schema.pattern}${spec.example === undefined ? '' : ` (e.g. ${spec.example})`}; got "${shown}".`,
    );
  }
  return raw;
}

// ---- the parameters the endpoints share ----

/** `cursor` on an endpoint that answers in one page: accepted by name, any value refused. */
const SINGLE_PAGE_CURSOR: ParamSpec = {
  name: 'cursor',
  in: 'query',
  required: false,
  description:
    'Accepted on every endpoint; this one answers in a single page (`next_cursor` is always null), so no cursor is valid here.',
  schema: { type: 'string', maxLength: 0 },
};

export const query = (
  name: string,
  description: string,
  schema: ParamSpec['schema'],
  example?: string | number,
  required = false,
): ParamSpec => ({ name, in: 'query', description, required, schema, ...(example === undefined ? {} : { example }) });

/** Both cases are accepted (and documented), so a client validating against the document accepts `CO` too. */
const STATE_CODES = [...STATES_BY_USPS.keys()].flatMap((c) => [c, c.toUpperCase()]);

export const P = {
  lat: query(
    'lat',
    'Latitude in decimal degrees (WGS84), -90 to 90.',
    { type: 'number', minimum: -90, maximum: 90 },
    39.7392,
    true,
  ),
  lng: query(
    'lng',
    'Longitude in decimal degrees (WGS84), -180 to 180.',
    { type: 'number', minimum: -180, maximum: 180 },
    -104.9903,
    true,
  ),
  date: (what: string) =>
    query('date', `${what} (YYYY-MM-DD); default today (UTC).`, { type: 'string', format: 'date' }, '2026-11-03'),
  address: query(
    'address',
    'A postal address, a 5-digit ZIP code, `City, ST`, or `lat,lng`.',
    { type: 'string', maxLength: 500 },
    '80202',
    true,
  ),
  state: (required: boolean) =>
    query(
      'state',
      'Two-letter USPS state code, either case (`CO`, `co`).',
      { type: 'string', enum: STATE_CODES },
      'co',
      required,
    ),
  level: query(
    'level',
    "Level of the contest's region.",
    { type: 'string', enum: LEVELS.map(restLevel) },
    'congressional-district',
  ),
  contest: (required: boolean) =>
    query(
      'contest',
      'A contest slug.',
      { type: 'string', pattern: '^contest:[a-z0-9]+(-[a-z0-9]+)*$' },
      'contest:co-cd-1-us-representative-2026-general',
      required,
    ),
  party: query(
    'party',
    'A party slug.',
    { type: 'string', pattern: '^party:[a-z0-9]+(-[a-z0-9]+)*$' },
    'party:democratic',
  ),
  office: query(
    'office',
    'An office slug.',
    { type: 'string', pattern: '^office:[a-z0-9]+(-[a-z0-9]+)*$' },
    'office:co-governor',
  ),
  region: query(
    'region',
    'A region slug.',
    { type: 'string', pattern: '^region:[a-z0-9]+(-[a-z0-9]+)*$' },
    'region:co',
  ),
  from: query(
    'from',
    'First day (YYYY-MM-DD), inclusive; default today (UTC).',
    { type: 'string', format: 'date' },
    '2026-01-01',
  ),
  to: query(
    'to',
    'Last day (YYYY-MM-DD), inclusive; default: no end.',
    { type: 'string', format: 'date' },
    '2028-12-31',
  ),
  minConfidence: query(
    'min_confidence',
    'Leave out facts whose confidence is below this (0 to 1); default 0 returns everything, each with its score.',
    { type: 'number', minimum: 0, maximum: 1, default: 0 },
    0.1,
  ),
  singlePageCursor: SINGLE_PAGE_CURSOR,
  cursor: query('cursor', 'The `next_cursor` of the previous page; only valid with the same filters.', {
    type: 'string',
    maxLength: MAX_PARAM_LENGTH,
  }),
  limit: query(
    'limit',
    'Items per page, 1 to 200; default 50.',
    { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    50,
  ),
  slug: (kind: string, example: string): ParamSpec => ({
    name: 'slug',
    in: 'path',
    description: `The ${kind}'s slug.`,
    required: true,
    schema: { type: 'string', pattern: `^${kind}:[a-z0-9]+(-[a-z0-9]+)*$` },
    example,
  }),
} as const;

/** `date` parameter's value, today when absent. */
export function dateOr(params: Params, name: string, now?: Date): string {
  const v = params[name];
  // Without `now`, todayUtc answers from its memo of the current day instead of formatting a date per request.
  return typeof v === 'string' ? v : todayUtc(now);
}

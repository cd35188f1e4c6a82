import { STATUS_CODES } from 'node:http';
import type { ErrorType } from '@civicgraph/kit';
import { PROBLEM_MEDIA_TYPE } from '../../http/problem.js';
import { PROBLEM_TYPE_NAMES, PROBLEM_TYPES, problemExample, problemStatus } from '../resources/problem.js';

/** A JSON object of the OpenAPI document. */
export type Json = Record<string, unknown>;

/** The problem types any /v1 endpoint can answer with, whatever it declares. */
export const COMMON_ERRORS: readonly ErrorType[] = [
  'invalid_parameter',
  'unsupported_version',
  'unauthenticated',
  'entitlement_required',
  'out_of_scope',
  'not_found',
  'rate_limited',
  'upstream_unavailable',
  'internal',
];

const integer = { type: 'integer', minimum: 0 };
const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

/** `components.headers`: every response header civicgraph sends, described once. */
export const HEADERS: Record<string, Json> = {
  'Civic-Request-Id': header('Identifies this request; equals `request_id` in an error body.'),
  'Civic-Version': header('The API version the response is shaped for.', { type: 'string', format: 'date' }),
  'Civic-Entitlements': header("The key's entitlements, comma-separated, e.g. `geography, jurisdictions`."),
  'Civic-RateLimit-Limit': header('Requests allowed per minute.', integer),
  'Civic-RateLimit-Remaining': header('Requests left in the current minute.', integer),
  'Civic-RateLimit-Reset': header('When the minute ends, in unix seconds.', integer),
  ETag: header('Strong validator over the exact bytes of the body; send it in `If-None-Match`.'),
  'Cache-Control': header(
    '`private, max-age=86400` for geographic answers, `private, max-age=300` for candidacy-bearing ones.',
  ),
  Vary: header('`Authorization, Civic-Version`.'),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', minimum: 1 }),
};

const headerRefs = (names: readonly string[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const RATE = ['Civic-RateLimit-Limit', 'Civic-RateLimit-Remaining', 'Civic-RateLimit-Reset'];
const CACHE = ['ETag', 'Cache-Control', 'Vary'];

/** Headers of a 200 or 304 answer. */
export function answerHeaders(): Json {
  return headerRefs(['Civic-Request-Id', 'Civic-Version', 'Civic-Entitlements', ...RATE, ...CACHE]);
}

/** The 304 of a conditional request. */
export function notModified(): Json {
  return {
    description: 'Not Modified: `If-None-Match` named the current ETag. Not counted against the rate limit.',
    headers: answerHeaders(),
  };
}

/** `components.examples`: one example per problem type, carrying its meaning. */
export function problemExamples(): Json {
  return Object.fromEntries(
    PROBLEM_TYPE_NAMES.map((type) => [
      type,
      {
        summary: `${type} — ${problemStatus(type).title}`,
        description: PROBLEM_TYPES[type].description,
        value: problemExample(type),
      },
    ]),
  );
}

/** Error responses by status for these problem types (several types may share a status). */
export function problemResponses(types: readonly ErrorType[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorType[]>();
  for (const type of new Set(types)) {
    const { status } = problemStatus(type);
    byStatus.set(status, [...(byStatus.get(status) ?? []), type]);
  }
  const statuses = [...byStatus.keys()].sort((a, b) => a - b);
  return Object.fromEntries(statuses.map((status) => [String(status), problemResponse(byStatus.get(status)!)]));
}

function problemResponse(types: readonly ErrorType[]): Json {
  const retry = types.some((t) => t === 'rate_limited' || t === 'upstream_unavailable');
  const status = problemStatus(types[0]!).status;
  return {
    description: `${STATUS_CODES[status] ?? 'Error'}: ${types.map((t) => `\`${t}\``).join(' or ')} (see Errors).`,
    headers: headerRefs(['Civic-Request-Id', ...RATE, ...(retry ? ['Retry-After'] : [])]),
    content: {
      [PROBLEM_MEDIA_TYPE]: {
        schema: { $ref: '#/components/schemas/Problem' },
        examples: Object.fromEntries(types.map((t) => [t, { $ref: `#/components/examples/${t}` }])),
      },
    },
  };
}

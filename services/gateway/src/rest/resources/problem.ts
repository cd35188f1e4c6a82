import { errorFromType, type ErrorType } from '@civicgraph/kit';
import { nullable, object, type JsonSchema } from '../schema/json-schema.js';

/** What a problem type means and an example of one, for the docs (status and title come from kit's error classes). */
export interface ProblemTypeDoc {
  description: string;
  example: { detail: string; field: string | null };
}

/** Every problem type of DESIGN's HTTP conventions, documented once: a missing one is a compile error. */
export const PROBLEM_TYPES: Record<ErrorType, ProblemTypeDoc> = {
  invalid_parameter: {
    description:
      'A parameter is unknown, repeated, missing or out of range; `field` names it. Fix the request; retrying it unchanged fails again.',
    example: { detail: 'lat must be between -90 and 90, got 91.', field: 'lat' },
  },
  unauthenticated: {
    description: 'No API key, a malformed `Authorization` header, or a key that is unknown or revoked.',
    example: { detail: 'Send your API key as `Authorization: Bearer <key>`.', field: 'Authorization' },
  },
  entitlement_required: {
    description:
      'The key lacks an entitlement the request needs (`geography` for boundaries and point lookups, `contact` for campaign contact fields); `field` names it.',
    example: {
      detail: 'This key lacks the geography entitlement, which point-in-district lookups require.',
      field: 'geography',
    },
  },
  plan_required: {
    description:
      "The key's plan does not include the layer or operation (Cypher, agent, webhooks and bulk export need Build or Enterprise).",
    example: { detail: 'Cypher queries need the Build or Enterprise plan.', field: null },
  },
  out_of_scope: {
    description:
      "The request names states or jurisdiction tiers outside the key's scope. (A single node outside the scope is a `not_found`: it does not exist for that key.)",
    example: { detail: 'This key may read co; the request names tx.', field: 'state' },
  },
  not_found: {
    description:
      "No such resource for this key: it does not exist, is outside the key's scope, or (for a candidacy) is below `min_confidence`.",
    example: { detail: 'No contest contest:co-nowhere-mayor-2030-general.', field: 'slug' },
  },
  rate_limited: {
    description:
      'The key (or, without a key, the client address) used its requests for this minute. Wait `Retry-After` seconds; the `Civic-RateLimit-*` headers show the bucket.',
    example: { detail: 'Rate limit of 60 requests per minute exceeded.', field: null },
  },
  query_too_complex: {
    description: 'A GraphQL or Cypher query is above the complexity limit; split it or ask for fewer fields.',
    example: { detail: 'Query complexity 1200 is above the limit of 1000.', field: null },
  },
  unsupported_cypher: {
    description:
      'The Cypher query uses a clause, operator or function outside the read-only subset civicgraph runs (writing clauses, procedures, UNION, unbounded paths…); the detail names it and where it starts. `GET /v1/cypher/schema` lists the subset.',
    example: {
      detail:
        'CREATE at line 1, column 1 is not supported: civicgraph runs read-only queries of MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND and RETURN (see GET /v1/cypher/schema).',
      field: 'query',
    },
  },
  unsupported_version: {
    description: 'The `Civic-Version` header names no known version; the detail lists the known ones.',
    example: {
      detail: 'Civic-Version "2025-01-01" is not a known version; known versions: 2026-11-01.',
      field: 'Civic-Version',
    },
  },
  headers_too_large: {
    description:
      'The request line and headers together exceed 16 KB, so the request was not read. Send fewer or shorter headers.',
    example: { detail: 'The request line and headers together exceed 16 KB.', field: 'headers' },
  },
  request_timeout: {
    description:
      'The request did not arrive in time: its line and headers within 10 s, the whole request within 30 s. The connection is closed.',
    example: { detail: 'The request line and headers did not arrive within 10 s.', field: 'request' },
  },
  response_too_large: {
    description:
      "The answer would be larger than the key's plan allows in one response (Explore 2 MB, Build 16 MB, Enterprise 64 MB); `field` names the parameter to change or, in GraphQL, the response path where the ceiling was passed. Ask for a coarser boundary (`simplify`), fewer aliases or a smaller page.",
    example: {
      detail:
        'The boundary of region:ak-cd-1 is 3.1 MB at simplify=0; an Explore answer may hold 2 MB. Ask with a larger simplify.',
      field: 'simplify',
    },
  },
  range_not_satisfiable: {
    description:
      "A download's `Range` starts past the end of the file; `Content-Range: bytes */<size>` gives the file's size.",
    example: { detail: "The range is outside the file's 1048576 bytes.", field: 'Range' },
  },
  upstream_unavailable: {
    description: 'A backing service is down or slow. Retry after `Retry-After` seconds.',
    example: { detail: 'The geo service is unavailable.', field: null },
  },
  internal: {
    description:
      'An unexpected failure on our side; the detail says nothing more. Quote `request_id` when reporting it.',
    example: { detail: 'An internal error occurred.', field: null },
  },
};

/** The problem type words, in the order the docs list them. */
export const PROBLEM_TYPE_NAMES = Object.keys(PROBLEM_TYPES) as ErrorType[];

/** HTTP status and title of a problem type, as kit's error class for it answers. */
export function problemStatus(type: ErrorType): { status: number; title: string } {
  const err = errorFromType(type, '');
  return { status: err.status, title: err.title };
}

/** An example problem+json body of `type`. */
export function problemExample(type: ErrorType) {
  const { detail, field } = PROBLEM_TYPES[type].example;
  return { type, ...problemStatus(type), detail, field, request_id: 'req_3f9c2b7e4d1a4c8e9b0f6a2d5c7e1b4a' };
}

/** The problem+json body of every error. */
export const schemas: Record<string, JsonSchema> = {
  Problem: object(
    {
      type: {
        type: 'string',
        enum: PROBLEM_TYPE_NAMES,
        description: 'Stable snake_case word; branch on it (the problem types are listed in the introduction).',
      },
      title: { type: 'string', description: 'Short human summary of the type.' },
      status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status.' },
      detail: { type: 'string', description: 'What went wrong with this request, for people.' },
      field: nullable({
        type: 'string',
        description: 'The offending parameter, header or entitlement, when one is to blame.',
      }),
      request_id: {
        type: 'string',
        pattern: '^req_',
        description: 'Equals the `Civic-Request-Id` header; quote it when asking for help.',
      },
    },
    [],
    'An error, as RFC 9457 problem+json.',
  ),
};

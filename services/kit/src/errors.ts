/**
 * Typed errors: one class per failure, each with a stable snake_case `type` (DESIGN, HTTP
 * conventions). They are mapped once to gRPC status (grpc/status.ts) and once to
 * problem+json (http/problem.ts); nothing else inspects messages.
 */
export type ErrorType =
  | 'invalid_parameter'
  | 'unauthenticated'
  | 'entitlement_required'
  | 'plan_required'
  | 'out_of_scope'
  | 'not_found'
  | 'rate_limited'
  | 'query_too_complex'
  | 'unsupported_cypher'
  | 'unsupported_version'
  | 'headers_too_large'
  | 'request_timeout'
  | 'response_too_large'
  | 'range_not_satisfiable'
  | 'upstream_unavailable'
  | 'internal';

export interface CivicErrorOptions {
  /** The offending request field or parameter, e.g. `lat`. */
  field?: string;
  /** Seconds a client should wait before retrying (429, 503). */
  retryAfter?: number;
  cause?: unknown;
}

export abstract class CivicError extends Error {
  abstract readonly type: ErrorType;
  abstract readonly status: number;
  abstract readonly title: string;
  readonly field: string | undefined;
  readonly retryAfter: number | undefined;

  constructor(detail: string, options: CivicErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.field = options.field;
    this.retryAfter = options.retryAfter;
  }
}

export class InvalidParameterError extends CivicError {
  readonly type = 'invalid_parameter';
  readonly status = 400;
  readonly title = 'Invalid parameter';
  constructor(field: string, detail: string, options: Omit<CivicErrorOptions, 'field'> = {}) {
    super(detail, { ...options, field });
  }
}

export class UnauthenticatedError extends CivicError {
  readonly type = 'unauthenticated';
  readonly status = 401;
  readonly title = 'Unauthenticated';
}

export class EntitlementRequiredError extends CivicError {
  readonly type = 'entitlement_required';
  readonly status = 403;
  readonly title = 'Entitlement required';
}

export class PlanRequiredError extends CivicError {
  readonly type = 'plan_required';
  readonly status = 403;
  readonly title = 'Plan required';
}

export class OutOfScopeError extends CivicError {
  readonly type = 'out_of_scope';
  readonly status = 403;
  readonly title = 'Out of scope';
}

export class NotFoundError extends CivicError {
  readonly type = 'not_found';
  readonly status = 404;
  readonly title = 'Not found';
}

export class RateLimitedError extends CivicError {
  readonly type = 'rate_limited';
  readonly status = 429;
  readonly title = 'Rate limit exceeded';
}

export class QueryTooComplexError extends CivicError {
  readonly type = 'query_too_complex';
  readonly status = 400;
  readonly title = 'Query too complex';
}

export class UnsupportedCypherError extends CivicError {
  readonly type = 'unsupported_cypher';
  readonly status = 400;
  readonly title = 'Unsupported Cypher';
}

export class UnsupportedVersionError extends CivicError {
  readonly type = 'unsupported_version';
  readonly status = 400;
  readonly title = 'Unsupported version';
}

export class HeadersTooLargeError extends CivicError {
  readonly type = 'headers_too_large';
  readonly status = 431;
  readonly title = 'Request header fields too large';
}

export class RequestTimeoutError extends CivicError {
  readonly type = 'request_timeout';
  readonly status = 408;
  readonly title = 'Request timeout';
}

export class ResponseTooLargeError extends CivicError {
  readonly type = 'response_too_large';
  readonly status = 400;
  readonly title = 'Response too large';
}

/** A download's `Range` lies outside the file (416, with `Content-Range: bytes *\/size`). */
export class RangeNotSatisfiableError extends CivicError {
  readonly type = 'range_not_satisfiable';
  readonly status = 416;
  readonly title = 'Range not satisfiable';
}

export class UpstreamUnavailableError extends CivicError {
  readonly type = 'upstream_unavailable';
  readonly status = 503;
  readonly title = 'Upstream unavailable';
}

export class InternalError extends CivicError {
  readonly type = 'internal';
  readonly status = 500;
  readonly title = 'Internal error';
}

const byType: Record<ErrorType, new (detail: string, options?: CivicErrorOptions) => CivicError> = {
  invalid_parameter: class extends InvalidParameterError {
    constructor(detail: string, options: CivicErrorOptions = {}) {
      super(options.field ?? '', detail, options);
    }
  },
  unauthenticated: UnauthenticatedError,
  entitlement_required: EntitlementRequiredError,
  plan_required: PlanRequiredError,
  out_of_scope: OutOfScopeError,
  not_found: NotFoundError,
  rate_limited: RateLimitedError,
  query_too_complex: QueryTooComplexError,
  unsupported_cypher: UnsupportedCypherError,
  unsupported_version: UnsupportedVersionError,
  headers_too_large: HeadersTooLargeError,
  request_timeout: RequestTimeoutError,
  response_too_large: ResponseTooLargeError,
  range_not_satisfiable: RangeNotSatisfiableError,
  upstream_unavailable: UpstreamUnavailableError,
  internal: InternalError,
};

/** Rebuilds a typed error from its wire form (type word, detail, field). */
export function errorFromType(type: string, detail: string, options: CivicErrorOptions = {}): CivicError {
  const ctor = byType[type as ErrorType] ?? InternalError;
  return new ctor(detail, options);
}

/** Any thrown value as a CivicError; unknown failures become `internal` with the cause kept. */
export function asCivicError(err: unknown): CivicError {
  if (err instanceof CivicError) return err;
  return new InternalError('An internal error occurred.', { cause: err });
}

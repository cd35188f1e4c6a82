import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { asCivicError, CivicError, errorFromType, UpstreamUnavailableError, type ErrorType } from '../errors.js';

/** The one mapping from error type to gRPC status code. */
const CODES: Record<ErrorType, status> = {
  invalid_parameter: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  entitlement_required: status.PERMISSION_DENIED,
  plan_required: status.PERMISSION_DENIED,
  out_of_scope: status.PERMISSION_DENIED,
  not_found: status.NOT_FOUND,
  rate_limited: status.RESOURCE_EXHAUSTED,
  query_too_complex: status.INVALID_ARGUMENT,
  unsupported_cypher: status.INVALID_ARGUMENT,
  unsupported_version: status.INVALID_ARGUMENT,
  headers_too_large: status.INVALID_ARGUMENT,
  request_timeout: status.DEADLINE_EXCEEDED,
  response_too_large: status.INVALID_ARGUMENT,
  range_not_satisfiable: status.OUT_OF_RANGE,
  upstream_unavailable: status.UNAVAILABLE,
  internal: status.INTERNAL,
};

const TYPE_KEY = 'civic-error-type';
const FIELD_KEY = 'civic-error-field';
const RETRY_KEY = 'civic-retry-after';

/** Encodes any thrown value as a gRPC error carrying the civic type and field in trailers. */
export function toServiceError(err: unknown): Partial<ServiceError> {
  const e = asCivicError(err);
  const metadata = new Metadata();
  metadata.set(TYPE_KEY, e.type);
  if (e.field !== undefined) metadata.set(FIELD_KEY, e.field);
  if (e.retryAfter !== undefined) metadata.set(RETRY_KEY, String(e.retryAfter));
  // Internal details stay in the service's log; the wire gets a generic message. A detail
  // that quotes input may hold half a surrogate pair (a parser splitting an astral
  // character): grpc-js percent-encodes details with encodeURI, which throws on it, outside
  // any handler, and the call would never end. Such halves become U+FFFD.
  const details = e.type === 'internal' ? 'internal error' : wellFormed(e.message);
  return { code: CODES[e.type], details, metadata };
}

const TRANSPORT_FAILURES = new Set([status.UNAVAILABLE, status.DEADLINE_EXCEEDED, status.CANCELLED]);

/** Decodes a gRPC client error back into the typed error the server threw. */
export function fromServiceError(err: unknown, upstream: string): CivicError {
  if (err instanceof CivicError) return err;
  const se = err as Partial<ServiceError>;
  const type = se.metadata?.get(TYPE_KEY)[0];
  if (typeof type === 'string') {
    const field = se.metadata?.get(FIELD_KEY)[0];
    const retry = se.metadata?.get(RETRY_KEY)[0];
    return errorFromType(type, se.details ?? '', {
      field: typeof field === 'string' ? field : undefined,
      retryAfter: typeof retry === 'string' ? Number(retry) : undefined,
      cause: err,
    });
  }
  if (se.code !== undefined && TRANSPORT_FAILURES.has(se.code)) {
    return new UpstreamUnavailableError(`The ${upstream} service is unavailable.`, { retryAfter: 1, cause: err });
  }
  return asCivicError(err);
}

/** `text` with every lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, ES2024). */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  EntitlementRequiredError,
  InternalError,
  InvalidParameterError,
  NotFoundError,
  UnauthenticatedError,
  UpstreamUnavailableError,
} from '../errors.js';
import { fromServiceError, toServiceError, wellFormed } from './status.js';

describe('gRPC error mapping', () => {
  it.each([
    [new InvalidParameterError('lat', 'bad'), status.INVALID_ARGUMENT],
    [new UnauthenticatedError('no'), status.UNAUTHENTICATED],
    [new EntitlementRequiredError('no', { field: 'geography' }), status.PERMISSION_DENIED],
    [new NotFoundError('gone'), status.NOT_FOUND],
  ])('maps %s to its status code and back to the same type and field', (err, code) => {
    const se = toServiceError(err);
    expect(se.code).toBe(code);
    const back = fromServiceError(se, 'geo');
    expect(back.type).toBe(err.type);
    expect(back.field).toBe(err.field);
    expect(back.message).toBe(err.message);
  });

  it('never sends an internal error message over the wire', () => {
    const se = toServiceError(new Error('password=hunter2 at /srv/db'));
    expect(se.code).toBe(status.INTERNAL);
    expect(se.details).toBe('internal error');
    expect(fromServiceError(se, 'geo')).toBeInstanceOf(InternalError);
  });

  it('turns a transport failure into upstream_unavailable naming the service', () => {
    const err = fromServiceError({ code: status.UNAVAILABLE, details: 'connect ECONNREFUSED' }, 'geo');
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err.message).toContain('geo');
    expect(err.retryAfter).toBe(1);
  });

  it('makes details well-formed: a lone surrogate half becomes U+FFFD, pairs stay', () => {
    expect(wellFormed('a\ud800b\udc00c\ud83d\ude00')).toBe('a\ufffdb\ufffdc\ud83d\ude00');
    expect(toServiceError(new InvalidParameterError('query', 'at \udbc1')).details).toBe('at \ufffd');
  });
});

import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { NotFoundError, UnauthenticatedError } from '@civicgraph/kit';
import { authorizationCount } from '../http/edge.js';

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

/**
 * Guards the admin API with the deployment's admin token (CIVIC_ADMIN_TOKEN), compared in
 * constant time (both sides hashed first, so even the length does not show). Without a
 * configured token the admin API does not exist: 404, the same as any unknown path.
 */
export function requireAdminToken(token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    if (expected === undefined) return next(new NotFoundError(`No endpoint ${req.method} ${req.path}.`));
    const m = BEARER.exec(req.get('Authorization') ?? '');
    const given = digest(m?.[1] ?? '');
    // Two Authorization headers are refused, whatever they hold: which one a proxy acts on is anyone's guess.
    if (authorizationCount(req.rawHeaders) > 1)
      return next(new UnauthenticatedError('Send exactly one Authorization header.', { field: 'Authorization' }));
    if (m === null || !timingSafeEqual(given, expected)) {
      return next(
        new UnauthenticatedError('The admin API needs `Authorization: Bearer <admin token>` (CIVIC_ADMIN_TOKEN).', {
          field: 'Authorization',
        }),
      );
    }
    next();
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

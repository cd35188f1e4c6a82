import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { Response } from 'express';
import type { ApiVersion, RateDecision } from '@civicgraph/kit';

/** What the edge middleware learns about a request, kept on `res.locals.civic`. */
export interface RequestContext {
  requestId: string;
  /** When the request reached the gateway (`performance.now()`), for its duration. */
  started: number;
  principal?: Principal;
  version?: ApiVersion;
  /** The rate bucket's state before this request was counted. */
  rate?: RateDecision;
  /** Bucket and limit the request counts against once it is answered (not for 304s). */
  bucket?: { id: string; limit: number };
}

export function contextOf(res: Response): RequestContext {
  return res.locals['civic'] as RequestContext;
}

export function principalOf(res: Response): Principal {
  const p = contextOf(res).principal;
  if (p === undefined) throw new Error('route mounted without authentication');
  return p;
}

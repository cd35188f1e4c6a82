import type { Response } from 'express';
import type { CivicError } from '@civicgraph/kit';

/** RFC 9457 problem document as civicgraph serves it (DESIGN, HTTP conventions). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  field: string | null;
  request_id: string;
}

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The one mapping from a typed error to problem+json. Internal details never leave. */
export function toProblem(err: CivicError, requestId: string): Problem {
  return {
    type: err.type,
    title: err.title,
    status: err.status,
    detail: err.type === 'internal' ? 'An internal error occurred.' : err.message,
    field: err.field ?? null,
    request_id: requestId,
  };
}

export function sendProblem(res: Response, err: CivicError, requestId: string): void {
  if (err.retryAfter !== undefined) res.setHeader('Retry-After', String(err.retryAfter));
  res
    .status(err.status)
    .type(PROBLEM_MEDIA_TYPE)
    .send(JSON.stringify(toProblem(err, requestId)));
}

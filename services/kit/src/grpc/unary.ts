import { status, type CallOptions, type Metadata, type sendUnaryData, type ServerUnaryCall, type ServiceError } from '@grpc/grpc-js';
import type { Logger } from '../log.js';
import { toServiceError } from './status.js';

/**
 * Adapts an async handler to grpc-js's callback form: errors are mapped once to gRPC
 * status, internal ones logged with their cause.
 */
export function unary<Req, Res>(
  log: Logger,
  method: string,
  fn: (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res> | Res,
) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    Promise.resolve()
      .then(() => fn(call.request, call))
      .then(
        (res) => callback(null, res),
        (err: unknown) => {
          const se = toServiceError(err);
          if (se.details === 'internal error') log.error({ err, method }, 'handler failed');
          callback(se, null);
        },
      );
  };
}

export type ClientMethod<Req, Res> = (
  req: Req,
  md: Metadata,
  opts: Partial<CallOptions>,
  cb: (err: ServiceError | null, res: Res) => void,
) => unknown;

/**
 * The retry policy for reads: a call that fails with UNAVAILABLE (a peer restarting, a
 * connection not yet up) is tried again after 50 ms, then 150 ms, while its deadline
 * allows; every other failure returns at once.
 */
export const RETRY_DELAYS_MS = [50, 150] as const;

/** Promise form of a ts-proto grpc-js client call, within one overall deadline. */
export async function call<Req, Res>(fn: ClientMethod<Req, Res>, req: Req, metadata: Metadata, deadlineMs: number): Promise<Res> {
  const deadline = Date.now() + deadlineMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(fn, req, metadata, deadline);
    } catch (err) {
      const delay = RETRY_DELAYS_MS[attempt];
      const retryable = (err as Partial<ServiceError>).code === status.UNAVAILABLE && delay !== undefined;
      if (!retryable || Date.now() + delay >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

function once<Req, Res>(fn: ClientMethod<Req, Res>, req: Req, metadata: Metadata, deadline: number): Promise<Res> {
  return new Promise((resolve, reject) => {
    fn(req, metadata, { deadline }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

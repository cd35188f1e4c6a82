import { status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import type { Logger } from '../log.js';
import { rpcSeconds } from '../metrics/metrics.js';
import { toServiceError } from './status.js';

/**
 * Adapts an async handler to grpc-js's callback form: errors are mapped once to gRPC
 * status, internal ones logged with their cause; every call timed by method and status code.
 */
export function unary<Req, Res>(
  log: Logger,
  method: string,
  fn: (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res> | Res,
) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    const timer = rpcSeconds.startTimer({ method });
    Promise.resolve()
      .then(() => fn(call.request, call))
      .then(
        (res) => {
          timer({ code: 'OK' });
          callback(null, res);
        },
        (err: unknown) => {
          const se = toServiceError(err);
          timer({ code: se.code === undefined ? 'UNKNOWN' : (status[se.code] ?? String(se.code)) });
          if (se.details === 'internal error') log.error({ err, method }, 'handler failed');
          callback(se, null);
        },
      );
  };
}

import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
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

import { status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { context } from '@opentelemetry/api';
import type { Logger } from '../log.js';
import { rpcSeconds } from '../metrics/metrics.js';
import { toServiceError } from './status.js';
import { endRpcSpan, serverSpan } from './trace-calls.js';

/**
 * Adapts an async handler to grpc-js's callback form: errors are mapped once to gRPC
 * status, internal ones logged with their cause; every call timed by method and status
 * code, and (tracing on) a SERVER span continuing the caller's trace, current while it runs.
 */
export function unary<Req, Res>(
  log: Logger,
  method: string,
  fn: (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res> | Res,
) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    const timer = rpcSeconds.startTimer({ method });
    const traced = serverSpan(call);
    const handle = () => Promise.resolve().then(() => fn(call.request, call));
    (traced === undefined ? handle() : context.with(traced.context, handle)).then(
      (res) => {
        timer({ code: 'OK' });
        if (traced !== undefined) endRpcSpan(traced.span, status.OK, '');
        callback(null, res);
      },
      (err: unknown) => {
        const se = toServiceError(err);
        const code = se.code ?? status.UNKNOWN;
        timer({ code: status[code] ?? String(code) });
        if (traced !== undefined) endRpcSpan(traced.span, code, se.details ?? '');
        if (se.details === 'internal error') log.error({ err, method }, 'handler failed');
        callback(se, null);
      },
    );
  };
}

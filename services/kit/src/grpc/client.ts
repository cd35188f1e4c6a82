import {
  credentials,
  InterceptingCall,
  Metadata,
  status,
  type CallOptions,
  type ClientOptions,
  type Interceptor,
  type NextCall,
  type ServiceError,
  type StatusObject,
} from '@grpc/grpc-js';
import { tracer } from '../tracing/tracing.js';
import { traceCalls } from './trace-calls.js';

/**
 * The retry policy for calls between services: a call that fails with UNAVAILABLE before
 * any answer arrived (a peer restarting, a connection not yet up) is tried again after
 * 50 ms, then 150 ms, while its deadline allows; every other failure returns at once.
 */
export const RETRY_DELAYS_MS = [50, 150] as const;

/**
 * Options of every service client: a deadline on each call and the retry policy, both in
 * one interceptor (`deadlineAndRetry`). grpc-js's own retry machinery stays off because it
 * buffers every call in case it is retried; this one keeps only the request it sent.
 * Reconnection backs off from 100 ms to at most 1 s (grpc-js defaults: 1 s to 120 s), so a
 * service back after a restart is reachable again within a second. With tracing on when
 * the client is made, `traceCalls` comes first: one span per call, its retries inside it.
 */
export function clientOptions(deadlineMs: number): Partial<ClientOptions> {
  const retrying = deadlineAndRetry(deadlineMs);
  return {
    'grpc.enable_retries': 0,
    'grpc.keepalive_time_ms': 30_000,
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 1_000,
    interceptors: tracer() === undefined ? [retrying] : [traceCalls(), retrying],
  };
}

export const insecure = () => credentials.createInsecure();

/**
 * A client interceptor that gives a call without a deadline one `deadlineMs` from now, and
 * tries a call that failed with UNAVAILABLE, before any message arrived, again after each
 * of `delays` while the deadline allows.
 */
export function deadlineAndRetry(deadlineMs: number, delays: readonly number[] = RETRY_DELAYS_MS): Interceptor {
  return (options, nextCall) => {
    // grpc-js hands interceptors a call without a deadline as one ending at Infinity.
    const asked = options.deadline === undefined ? Infinity : new Date(options.deadline).getTime();
    const deadline = Number.isFinite(asked) ? asked : Date.now() + deadlineMs;
    const callOptions = { ...options, deadline };
    let request: unknown;
    // While a retry waits: its timer; once one started: that attempt (a cancel goes to whichever is live).
    let waiting: NodeJS.Timeout | undefined;
    let attempt: ReturnType<NextCall> | undefined;
    let end: ((s: StatusObject) => void) | undefined;
    return new InterceptingCall(nextCall(callOptions), {
      start(metadata, listener, next) {
        let tries = 0;
        // Whether an answer arrived (grpc-js reports a failed unary call's missing one as a null message).
        let answered = false;
        end = (s) => listener.onReceiveStatus(s);
        const retryable = (s: StatusObject) =>
          s.code === status.UNAVAILABLE &&
          !answered &&
          delays[tries] !== undefined &&
          Date.now() + delays[tries]! < deadline;
        const retry = () => {
          waiting = undefined;
          try {
            attempt = nextCall(callOptions);
          } catch (err) {
            // The client was closed while the call waited: it ends with the failure it had, not an uncaught throw.
            return listener.onReceiveStatus(ended(status.UNAVAILABLE, (err as Error).message));
          }
          attempt.start(metadata.clone(), {
            onReceiveMetadata: (md: Metadata) => listener.onReceiveMetadata(md),
            onReceiveMessage: (message: unknown) => {
              answered ||= message != null;
              listener.onReceiveMessage(message);
            },
            onReceiveStatus: (s: StatusObject) => (retryable(s) ? later() : listener.onReceiveStatus(s)),
          });
          attempt.sendMessage(request);
          attempt.halfClose();
        };
        const later = () => (waiting = setTimeout(retry, delays[tries++]));
        next(metadata.clone(), {
          onReceiveMessage: (message: unknown, pass: (m: unknown) => void) => {
            answered ||= message != null;
            pass(message);
          },
          onReceiveStatus: (s: StatusObject, pass: (s: StatusObject) => void) => (retryable(s) ? later() : pass(s)),
        });
      },
      sendMessage(message, next) {
        request = message;
        next(message);
      },
      cancel(next) {
        if (waiting !== undefined) {
          clearTimeout(waiting);
          waiting = undefined;
          end?.(ended(status.CANCELLED, 'Cancelled on client'));
        } else if (attempt !== undefined) attempt.cancelWithStatus(status.CANCELLED, 'Cancelled on client');
        else next();
      },
    });
  };
}

const ended = (code: status, details: string): StatusObject => ({ code, details, metadata: new Metadata() });

/** A ts-proto grpc-js client method in its (request, metadata, options, callback) form. */
export type ClientMethod<Req, Res> = (
  req: Req,
  md: Metadata,
  opts: Partial<CallOptions>,
  cb: (err: ServiceError | null, res: Res) => void,
) => unknown;

/** Promise form of a ts-proto grpc-js client call (its deadline and retries: the client's interceptor). */
export function call<Req, Res>(
  fn: ClientMethod<Req, Res>,
  req: Req,
  metadata: Metadata,
  options: Partial<CallOptions> = {},
): Promise<Res> {
  return new Promise((resolve, reject) => {
    fn(req, metadata, options, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

import { status, type ClientDuplexStream, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { UpstreamUnavailableError } from '../errors.js';
import type { MuxCall, MuxReply } from './mux-server.js';
import { principalBytes } from './principal.js';
import { fromCallError, fromServiceError } from './status.js';
import { RETRY_DELAYS_MS } from './unary.js';

/** Opens one multiplexed stream, e.g. `() => client.streamDistrictsAtPoints()`. */
export type OpenMuxStream<Req, Res> = () => ClientDuplexStream<MuxCall<Req>, MuxReply<Res>>;

interface Pending<Req, Res> {
  principal: Principal;
  request: Req;
  deadline: number;
  attempt: number;
  stream: ClientDuplexStream<MuxCall<Req>, MuxReply<Res>> | undefined;
  resolve(res: Res): void;
  reject(err: unknown): void;
}

/**
 * Unary calls carried on one long-lived bidirectional stream (see `muxed`). A grpc-js
 * unary call builds an HTTP/2 stream, metadata, filters and a deadline timer, and most of
 * that outlives a fast answer into the old generation; here a call is one message each way.
 *
 * Semantics match `call()`: one overall deadline per call (checked by a sweep, not a timer
 * per call); when the stream is lost (the service restarting or unreachable) its
 * unanswered calls are sent again on a new stream after 50 ms, then 150 ms, while their
 * deadline allows, since every method carried this way is a read; other failures and the
 * service's own typed errors return at once.
 */
export class MuxClient<Req, Res> {
  private stream: ClientDuplexStream<MuxCall<Req>, MuxReply<Res>> | undefined;
  private readonly pending = new Map<number, Pending<Req, Res>>();
  private nextId = 0;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly open: OpenMuxStream<Req, Res>,
    private readonly upstream: string,
    private readonly deadlineMs: number,
  ) {}

  /** Calls in flight or waiting to be resent. */
  get inFlight(): number {
    return this.pending.size;
  }

  call(principal: Principal, request: Req): Promise<Res> {
    if (this.closed) return Promise.reject(this.unavailable('the client is closed'));
    return new Promise<Res>((resolve, reject) => {
      const id = this.allocateId();
      const p: Pending<Req, Res> = { principal, request, deadline: Date.now() + this.deadlineMs, attempt: 0, stream: undefined, resolve, reject };
      this.pending.set(id, p);
      this.startSweeper();
      this.send(id, p);
    });
  }

  /** Ends the stream; calls still unanswered fail as upstream_unavailable. */
  close(): void {
    this.closed = true;
    const stream = this.stream;
    this.stream = undefined;
    stream?.cancel();
    for (const [id, p] of this.pending) this.settle(id, p, this.unavailable('the client closed'));
  }

  private send(id: number, p: Pending<Req, Res>): void {
    const stream = this.current();
    p.stream = stream;
    stream.write({ id, principal: principalBytes(p.principal), request: p.request });
  }

  private current(): ClientDuplexStream<MuxCall<Req>, MuxReply<Res>> {
    if (this.stream !== undefined) return this.stream;
    const stream = this.open();
    this.stream = stream;
    stream.on('data', (reply: MuxReply<Res>) => this.answer(reply));
    // 'status' comes once per stream, whatever ended it; 'error' must have a listener.
    stream.on('status', (s: StatusObject) => this.lost(stream, s.code === status.OK ? undefined : (s as ServiceError)));
    stream.on('error', (err: ServiceError) => this.lost(stream, err));
    return stream;
  }

  private answer(reply: MuxReply<Res>): void {
    const p = this.pending.get(reply.id);
    if (p === undefined) return; // timed out already
    if (reply.error !== undefined) this.settle(reply.id, p, fromCallError(reply.error));
    else if (reply.response !== undefined) this.settle(reply.id, p, undefined, reply.response);
    else this.settle(reply.id, p, this.unavailable('it sent an empty reply'));
  }

  /** The stream ended: resend its unanswered calls if the failure is transient. */
  private lost(stream: ClientDuplexStream<MuxCall<Req>, MuxReply<Res>>, err: ServiceError | undefined): void {
    if (this.stream === stream) this.stream = undefined;
    const transient = err === undefined || err.code === status.UNAVAILABLE;
    const now = Date.now();
    for (const [id, p] of this.pending) {
      if (p.stream !== stream) continue;
      p.stream = undefined;
      const delay = RETRY_DELAYS_MS[p.attempt];
      if (transient && !this.closed && delay !== undefined && now + delay < p.deadline) {
        p.attempt += 1;
        setTimeout(() => {
          if (this.pending.get(id) === p && !this.closed) this.send(id, p);
        }, delay);
      } else {
        this.settle(id, p, err === undefined ? this.unavailable('it ended the stream') : fromServiceError(err, this.upstream));
      }
    }
  }

  private settle(id: number, p: Pending<Req, Res>, err: unknown, res?: Res): void {
    this.pending.delete(id);
    if (err === undefined) p.resolve(res as Res);
    else p.reject(err);
    if (this.pending.size === 0) this.stopSweeper();
  }

  private allocateId(): number {
    do this.nextId = (this.nextId + 1) >>> 0;
    while (this.pending.has(this.nextId));
    return this.nextId;
  }

  private startSweeper(): void {
    if (this.sweeper !== undefined) return;
    const every = Math.max(5, Math.min(100, Math.floor(this.deadlineMs / 4)));
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [id, p] of this.pending) {
        if (now >= p.deadline) this.settle(id, p, this.unavailable(`it did not answer within ${this.deadlineMs} ms`));
      }
    }, every);
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private unavailable(why: string): UpstreamUnavailableError {
    return new UpstreamUnavailableError(`The ${this.upstream} service is unavailable: ${why}.`, { retryAfter: 1 });
  }
}

import type { ServerDuplexStream } from '@grpc/grpc-js';
import { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { CallError } from '@civicgraph/protos/civic/rpc/v1/rpc';
import { InvalidParameterError, UnauthenticatedError } from '../errors.js';
import type { Logger } from '../log.js';
import { toCallError } from './status.js';

/** One call carried on a multiplexed stream: its id, its caller, its request. */
export interface MuxCall<Req> {
  id: number;
  principal: Buffer;
  request?: Req | undefined;
}

/** The answer to one MuxCall: the same id with its response or its typed error. */
export interface MuxReply<Res> {
  id: number;
  response?: Res | undefined;
  error?: CallError | undefined;
}

/**
 * The multiplexed streams a server has open. A gRPC server drains by waiting for its
 * calls to end, and these never end by themselves, so stopping a server first asks each
 * to finish: it answers every call already received, then ends; clients reopen and resend.
 */
export class OpenStreams {
  private readonly streams = new Set<{ drain(): void }>();

  get size(): number {
    return this.streams.size;
  }

  add(stream: { drain(): void }): void {
    this.streams.add(stream);
  }

  delete(stream: { drain(): void }): void {
    this.streams.delete(stream);
  }

  drainAll(): void {
    for (const s of [...this.streams]) s.drain();
  }
}

/** Most distinct callers whose decoded principal one stream remembers. */
const PRINCIPALS_PER_STREAM = 256;

/**
 * Serves a bidirectional stream of MuxCalls with `fn`, the same function a unary method
 * would run: each call is answered by a MuxReply with its id, its response or the typed
 * error it threw (internal ones logged here, sent as `internal error`), in completion
 * order. The stream stays open across failed calls.
 */
export function muxed<Req, Res>(
  log: Logger,
  method: string,
  streams: OpenStreams,
  fn: (request: Req, principal: Principal) => Promise<Res> | Res,
) {
  return (stream: ServerDuplexStream<MuxCall<Req>, MuxReply<Res>>): void => {
    const principals = new Map<string, Principal>();
    let inflight = 0;
    let draining = false;
    let open = true;
    const handle = {
      drain: () => {
        draining = true;
        if (inflight === 0) finish();
      },
    };
    const close = () => {
      open = false;
      streams.delete(handle);
    };
    const finish = () => {
      if (open) stream.end();
      close();
    };
    const reply = (msg: MuxReply<Res>) => {
      if (open && !stream.cancelled) stream.write(msg);
    };
    const fail = (id: number, err: unknown) => {
      const error = toCallError(err);
      if (error.type === 'internal') log.error({ err, method }, 'handler failed');
      reply({ id, error });
    };
    const settled = () => {
      inflight -= 1;
      if (draining && inflight === 0) finish();
    };
    streams.add(handle);
    stream.on('data', (call: MuxCall<Req>) => {
      // A call that arrives after draining began is never answered; the client resends it.
      if (draining) return;
      let result: Promise<Res> | Res;
      try {
        if (call.request === undefined) throw new InvalidParameterError('request', 'The call carries no request.');
        result = fn(call.request, decodePrincipal(principals, call.principal));
      } catch (err) {
        fail(call.id, err);
        return;
      }
      if (!(result instanceof Promise)) {
        reply({ id: call.id, response: result });
        return;
      }
      inflight += 1;
      result.then((response) => reply({ id: call.id, response }), (err: unknown) => fail(call.id, err)).finally(settled);
    });
    // The client is done sending: end once what it sent is answered.
    stream.on('end', handle.drain);
    stream.on('error', close);
    stream.on('cancelled', close);
  };
}

function decodePrincipal(cache: Map<string, Principal>, bytes: Uint8Array): Principal {
  if (bytes.length === 0) throw new UnauthenticatedError('The call carries no principal.');
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let principal = cache.get(key);
  if (principal === undefined) {
    try {
      principal = Principal.decode(bytes);
    } catch {
      throw new UnauthenticatedError('The call carries a principal that cannot be decoded.');
    }
    if (cache.size >= PRINCIPALS_PER_STREAM) cache.clear();
    cache.set(key, principal);
  }
  return principal;
}

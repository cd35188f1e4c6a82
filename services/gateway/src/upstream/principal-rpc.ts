import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { CallOptions, Metadata, ServiceError } from '@grpc/grpc-js';
import { call, fromServiceError, principalMetadata } from '@civicgraph/kit';

/** A ts-proto grpc-js client method in its (request, metadata, options, callback) form. */
export type Unary<Req, Res> = (req: Req, md: Metadata, opts: Partial<CallOptions>, cb: (err: ServiceError | null, res: Res) => void) => unknown;

/**
 * Calls of one upstream on behalf of a caller: the principal travels in the metadata, the
 * deadline is the gateway's, and failures come back as the typed errors the service threw
 * (a transport failure as `upstream_unavailable` naming the service).
 */
export function principalRpc(client: object, upstream: string, deadlineMs: number) {
  return async function rpc<Req, Res>(method: Unary<Req, Res>, principal: Principal, req: Req): Promise<Res> {
    try {
      return await call(method.bind(client), req, principalMetadata(principal), deadlineMs);
    } catch (err) {
      throw fromServiceError(err, upstream);
    }
  };
}

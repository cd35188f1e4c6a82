import { Metadata, type CallOptions } from '@grpc/grpc-js';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { call, fromServiceError, principalMetadata, type ClientMethod } from '@civicgraph/kit';

/**
 * Calls of one upstream service: the caller's principal (when the call is made for one)
 * travels in the metadata; deadline and retries are the client's (kit `clientOptions`)
 * unless the call gives its own deadline;
 * failures come back as the typed errors the service threw (a transport failure as
 * `upstream_unavailable` naming the service).
 */
export function rpcOf(client: object, upstream: string) {
  return async function rpc<Req, Res>(
    method: ClientMethod<Req, Res>,
    req: Req,
    principal?: Principal,
    options: Partial<CallOptions> = {},
  ): Promise<Res> {
    try {
      return await call(
        method.bind(client),
        req,
        principal === undefined ? new Metadata() : principalMetadata(principal),
        options,
      );
    } catch (err) {
      throw fromServiceError(err, upstream);
    }
  };
}

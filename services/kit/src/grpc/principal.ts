import { Metadata, type ServerUnaryCall } from '@grpc/grpc-js';
import { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { UnauthenticatedError } from '../errors.js';

/** Metadata entry carrying the caller's principal from the gateway to the services. */
export const PRINCIPAL_KEY = 'civic-principal-bin';

export function principalMetadata(principal: Principal): Metadata {
  const md = new Metadata();
  md.set(PRINCIPAL_KEY, Buffer.from(Principal.encode(principal).finish()));
  return md;
}

/** The principal of an incoming call; a call without one is refused. */
export function principalOf(call: Pick<ServerUnaryCall<unknown, unknown>, 'metadata'>): Principal {
  const raw = call.metadata.get(PRINCIPAL_KEY)[0];
  if (!Buffer.isBuffer(raw)) throw new UnauthenticatedError('The call carries no principal.');
  return Principal.decode(raw);
}

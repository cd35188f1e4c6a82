import { Metadata, type ServerUnaryCall } from '@grpc/grpc-js';
import { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { UnauthenticatedError } from '../errors.js';

/** Metadata entry carrying the caller's principal from the gateway to the services. */
export const PRINCIPAL_KEY = 'civic-principal-bin';

/** Encoded principals, per principal object: the gateway reuses cached principals. */
const encoded = new WeakMap<Principal, Buffer>();

/** The principal as the bytes a call carries (metadata entry or stream call), memoised. */
export function principalBytes(principal: Principal): Buffer {
  let bytes = encoded.get(principal);
  if (bytes === undefined) {
    bytes = Buffer.from(Principal.encode(principal).finish());
    encoded.set(principal, bytes);
  }
  return bytes;
}

export function principalMetadata(principal: Principal): Metadata {
  const md = new Metadata();
  md.set(PRINCIPAL_KEY, principalBytes(principal));
  return md;
}

/** The principal of an incoming call; a call without one is refused. */
export function principalOf(call: Pick<ServerUnaryCall<unknown, unknown>, 'metadata'>): Principal {
  const raw = call.metadata.get(PRINCIPAL_KEY)[0];
  if (!Buffer.isBuffer(raw)) throw new UnauthenticatedError('The call carries no principal.');
  return Principal.decode(raw);
}

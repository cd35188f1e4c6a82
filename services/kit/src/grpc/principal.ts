import { Metadata, type ServerUnaryCall } from '@grpc/grpc-js';
import { Environment, Plan, Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { DeploymentEnvironment } from '../config.js';
import { OutOfScopeError, UnauthenticatedError } from '../errors.js';

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

/** The key id prefix of a service calling another as itself; auth mints API keys as `key_<base62>` only. */
const SERVICE_KEY_PREFIX = 'service:';

/**
 * The principal a service calls another as (`service:<name>`): of the environment it serves,
 * on no plan's limits and limited to no state or tier. The caller's own scope, where there
 * is one, is applied by the calling service.
 */
export function servicePrincipal(name: string, serves: DeploymentEnvironment): Principal {
  return {
    keyId: `${SERVICE_KEY_PREFIX}${name}`,
    environment: serves === 'live' ? Environment.ENVIRONMENT_LIVE : Environment.ENVIRONMENT_TEST,
    plan: Plan.PLAN_ENTERPRISE,
    pinnedVersion: '',
    rateLimitPerMinute: 0,
    entitlements: { contact: false, geography: false, states: [], tiers: [] },
  };
}

/**
 * The principal of a call to an internal RPC (one no gateway route reaches): served only
 * when a service calls as itself, its key id `service:<name>`. Every other caller, an API
 * key's principal passed on by a gateway included, is refused (PERMISSION_DENIED).
 */
export function servicePrincipalOf(call: Pick<ServerUnaryCall<unknown, unknown>, 'metadata'>, rpc: string): Principal {
  const principal = principalOf(call);
  if (!principal.keyId.startsWith(SERVICE_KEY_PREFIX))
    throw new OutOfScopeError(`${rpc} is internal: only a civicgraph service may call it.`);
  return principal;
}

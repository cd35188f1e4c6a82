import {
  AuthServiceClient,
  type CreatedKey,
  type CreateKeyRequest,
  type KeyRecord,
  type ListKeysRequest,
  type ListKeysResponse,
  type Principal,
  type RotateKeyRequest,
} from '@civicgraph/protos/civic/auth/v1/auth';
import { clientOptions, insecure } from '@civicgraph/kit';
import { rpcOf } from './rpc.js';

/** The gateway's view of the auth service: authentication on every request, key administration for /admin. */
export interface AuthUpstream {
  authenticate(key: string): Promise<Principal>;
  createKey(req: CreateKeyRequest): Promise<CreatedKey>;
  getKey(keyId: string): Promise<KeyRecord>;
  listKeys(req: ListKeysRequest): Promise<ListKeysResponse>;
  revokeKey(keyId: string): Promise<KeyRecord>;
  rotateKey(req: RotateKeyRequest): Promise<CreatedKey>;
  close(): void;
}

export function connectAuth(address: string, deadlineMs: number): AuthUpstream {
  const client = new AuthServiceClient(address, insecure(), clientOptions(deadlineMs));
  const rpc = rpcOf(client, 'auth');
  return {
    authenticate: (key) => rpc(client.authenticate, { key }),
    createKey: (req) => rpc(client.createKey, req),
    getKey: (keyId) => rpc(client.getKey, { keyId }),
    listKeys: (req) => rpc(client.listKeys, req),
    revokeKey: (keyId) => rpc(client.revokeKey, { keyId }),
    rotateKey: (req) => rpc(client.rotateKey, req),
    close: () => client.close(),
  };
}

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
import { Metadata } from '@grpc/grpc-js';
import { call, CLIENT_OPTIONS, fromServiceError, insecure, type ClientMethod } from '@civicgraph/kit';

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
  const client = new AuthServiceClient(address, insecure(), CLIENT_OPTIONS);
  const rpc = async <Req, Res>(method: ClientMethod<Req, Res>, req: Req): Promise<Res> => {
    try {
      return await call(method, req, new Metadata(), deadlineMs);
    } catch (err) {
      throw fromServiceError(err, 'auth');
    }
  };
  return {
    authenticate: (key) => rpc(client.authenticate.bind(client), { key }),
    createKey: (req) => rpc(client.createKey.bind(client), req),
    getKey: (keyId) => rpc(client.getKey.bind(client), { keyId }),
    listKeys: (req) => rpc(client.listKeys.bind(client), req),
    revokeKey: (keyId) => rpc(client.revokeKey.bind(client), { keyId }),
    rotateKey: (req) => rpc(client.rotateKey.bind(client), req),
    close: () => client.close(),
  };
}

import { AuthServiceClient, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { Metadata } from '@grpc/grpc-js';
import { call, CLIENT_OPTIONS, fromServiceError, insecure } from '@civicgraph/kit';

/** The gateway's view of the auth service. */
export interface AuthUpstream {
  authenticate(key: string): Promise<Principal>;
  close(): void;
}

export function connectAuth(address: string, deadlineMs: number): AuthUpstream {
  const client = new AuthServiceClient(address, insecure(), CLIENT_OPTIONS);
  return {
    async authenticate(key) {
      try {
        return await call(client.authenticate.bind(client), { key }, new Metadata(), deadlineMs);
      } catch (err) {
        throw fromServiceError(err, 'auth');
      }
    },
    close: () => client.close(),
  };
}

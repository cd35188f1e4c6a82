import { AuthServiceService } from '@civicgraph/protos/civic/auth/v1/auth';
import { startGrpcServer, type Lifecycle, type Logger } from '@civicgraph/kit';
import type { AuthConfig } from './config.js';
import { KeyService } from './domain/key-service.js';
import { authHandlers } from './handlers/auth-handlers.js';
import { LmdbKeyStore } from './store/lmdb-key-store.js';

export interface AuthDeps {
  lifecycle: Lifecycle;
  log: Logger;
}

/** A running auth service. */
export interface AuthService {
  readonly address: string;
  readonly port: number;
  readonly keys: KeyService;
}

export async function startAuthService(config: AuthConfig, deps: AuthDeps): Promise<AuthService> {
  const { lifecycle, log } = deps;
  const store = LmdbKeyStore.open({ path: config.storePath });
  lifecycle.defer('auth key store', () => store.close());
  const keys = new KeyService({ store });
  const server = await startGrpcServer({
    host: config.host,
    port: config.port,
    services: [{ name: 'civic.auth.v1.AuthService', definition: AuthServiceService, implementation: authHandlers(keys, log) }],
    log,
  });
  lifecycle.defer('auth grpc server', () => server.stop());
  server.markServing();
  return { address: server.address, port: server.port, keys };
}

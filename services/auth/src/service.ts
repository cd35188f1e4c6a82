import { AuthServiceService } from '@civicgraph/protos/civic/auth/v1/auth';
import { startGrpcServer, type EventBus, type Lifecycle, type Logger } from '@civicgraph/kit';
import type { AuthConfig } from './config.js';
import type { KeyService } from './domain/key-service.js';
import type { SubjectWords } from './domain/key-announcer.js';
import { openKeyService, type KeyStoreConfig } from './domain/open-key-service.js';
import { authHandlers } from './handlers/auth-handlers.js';

export interface AuthDeps {
  /** Where revocations and rotations are announced to the gateways. */
  bus: EventBus;
  /** Subject words for key events; default `test` and `live`. */
  subjectWords?: SubjectWords;
  lifecycle: Lifecycle;
  log: Logger;
}

/** A running auth service. */
export interface AuthService {
  readonly address: string;
  readonly port: number;
  readonly keys: KeyService;
}

export async function startAuthService(
  config: Pick<AuthConfig, 'host' | 'port'> & KeyStoreConfig & { logLevel?: string },
  deps: AuthDeps,
): Promise<AuthService> {
  const { lifecycle, log } = deps;
  const { keys, close } = openKeyService(config, deps.bus, deps.subjectWords);
  lifecycle.defer('auth key store', close);
  const server = await startGrpcServer({
    host: config.host,
    port: config.port,
    services: [
      { name: 'civic.auth.v1.AuthService', definition: AuthServiceService, implementation: authHandlers(keys, log) },
    ],
    log,
  });
  lifecycle.defer('auth grpc server', () => server.stop());
  server.markServing();
  return { address: server.address, port: server.port, keys };
}

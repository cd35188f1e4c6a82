import { int, optionalStr, str } from '@civicgraph/kit';
import { join, resolve } from 'node:path';

/** Auth service configuration: the only reader of process.env in this service. */
export interface AuthConfig {
  /** gRPC bind host (AUTH_GRPC_HOST, default 127.0.0.1). */
  host: string;
  /** gRPC port (AUTH_GRPC_PORT, default 50052; 0 picks a free one). */
  port: number;
  /** Where keys are kept: `${CIVIC_DATA_DIR}/auth` (CIVIC_DATA_DIR default `.civicgraph`). */
  storePath: string;
  /**
   * Pepper mixed into every stored key digest (CIVIC_KEY_PEPPER, at least 32 characters).
   * Unset: a random one kept in `${CIVIC_DATA_DIR}/auth-pepper.secret`, which the
   * `civicgraph keys` CLI reads too. Keep it out of backups of the key store: a copy of the
   * store without it cannot confirm a single key.
   */
  pepper: string | undefined;
  /** Where the pepper is kept when none is configured; default beside the store. */
  pepperPath?: string;
  /** NATS server for key revocation events (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  logLevel: string;
}

/** The data directory every embedded store lives under. */
export function dataDir(env: NodeJS.ProcessEnv): string {
  return resolve(str(env, 'CIVIC_DATA_DIR', '.civicgraph'));
}

export function readAuthConfig(env: NodeJS.ProcessEnv = process.env): Readonly<AuthConfig> {
  return Object.freeze({
    host: str(env, 'AUTH_GRPC_HOST', '127.0.0.1'),
    port: int(env, 'AUTH_GRPC_PORT', 50052, 0, 65535),
    storePath: join(dataDir(env), 'auth'),
    pepper: optionalStr(env, 'CIVIC_KEY_PEPPER'),
    natsUrl: optionalStr(env, 'NATS_URL'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}

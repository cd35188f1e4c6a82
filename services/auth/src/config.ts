import { int, str } from '@civicgraph/kit';
import { join, resolve } from 'node:path';

/** Auth service configuration: the only reader of process.env in this service. */
export interface AuthConfig {
  /** gRPC bind host (AUTH_GRPC_HOST, default 127.0.0.1). */
  host: string;
  /** gRPC port (AUTH_GRPC_PORT, default 50052; 0 picks a free one). */
  port: number;
  /** Where keys are kept: `${CIVIC_DATA_DIR}/auth` (CIVIC_DATA_DIR default `.civicgraph`). */
  storePath: string;
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
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}

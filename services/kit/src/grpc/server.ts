import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { HealthService } from '@civicgraph/protos/grpc/health/v1/health';
import type { Logger } from '../log.js';
import { HealthState, ServingStatus } from './health.js';

/** One gRPC service to host: its ts-proto definition and typed implementation. */
export interface HostedService {
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface GrpcServerOptions {
  /** Interface to bind; `127.0.0.1` on one machine, `0.0.0.0` in a container. */
  host: string;
  /** Port to bind; 0 picks a free one (tests, `civicgraph up`). */
  port: number;
  services: HostedService[];
  log: Logger;
  /** Largest request accepted, in bytes (default 16 MiB); servers of an import RPC raise it (IMPORT_MESSAGE_BYTES). */
  maxReceiveMessageBytes?: number;
}

/** A started gRPC server with grpc.health.v1, NOT_SERVING until `markServing()`. */
export interface GrpcServer {
  readonly port: number;
  readonly address: string;
  readonly health: HealthState;
  markServing(): void;
  /** Two-phase stop: NOT_SERVING and drain in-flight calls, then force after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export async function startGrpcServer(opts: GrpcServerOptions): Promise<GrpcServer> {
  const server = new Server({ 'grpc.max_receive_message_length': opts.maxReceiveMessageBytes ?? 16 * 1024 * 1024 });
  const health = new HealthState(opts.services.map((s) => s.name));
  server.addService(HealthService, health.implementation());
  for (const s of opts.services) server.addService(s.definition, s.implementation);
  const port = await bind(server, `${opts.host}:${opts.port}`);
  const address = `${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  opts.log.info({ address, services: opts.services.map((s) => s.name) }, 'grpc server listening');
  return {
    port,
    address,
    health,
    markServing: () => health.set(ServingStatus.SERVING),
    stop: (graceMs = 5_000) => stopServer(server, health, graceMs),
  };
}

function bind(server: Server, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(target, ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port)));
  });
}

function stopServer(server: Server, health: HealthState, graceMs: number): Promise<void> {
  health.set(ServingStatus.NOT_SERVING);
  health.endWatches();
  return new Promise((resolve) => {
    const fuse = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    fuse.unref();
    server.tryShutdown(() => {
      clearTimeout(fuse);
      resolve();
    });
  });
}

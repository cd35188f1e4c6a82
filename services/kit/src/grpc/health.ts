import type { sendUnaryData, ServerUnaryCall, ServerWritableStream } from '@grpc/grpc-js';
import {
  HealthCheckRequest,
  HealthCheckResponse,
  HealthCheckResponse_ServingStatus as Status,
  type HealthServer,
} from '@civicgraph/protos/grpc/health/v1/health';
import { status as grpcStatus } from '@grpc/grpc-js';

export { HealthCheckResponse_ServingStatus as ServingStatus } from '@civicgraph/protos/grpc/health/v1/health';

/**
 * grpc.health.v1 state for one server. The empty service name is the whole server; each
 * registered service name follows it. Starts NOT_SERVING; a service flips to SERVING only
 * once its store and bus are ready.
 */
export class HealthState {
  private readonly statuses = new Map<string, Status>();
  private readonly watchers = new Set<{
    service: string;
    call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>;
  }>();

  constructor(services: string[]) {
    for (const s of ['', ...services]) this.statuses.set(s, Status.NOT_SERVING);
  }

  set(status: Status): void {
    for (const service of this.statuses.keys()) this.statuses.set(service, status);
    for (const w of this.watchers) w.call.write({ status: this.get(w.service) });
  }

  get(service: string): Status {
    return this.statuses.get(service) ?? Status.SERVICE_UNKNOWN;
  }

  /** Ends open Watch streams, so shutdown does not wait on them. */
  endWatches(): void {
    for (const w of this.watchers) w.call.end();
    this.watchers.clear();
  }

  implementation(): HealthServer {
    return {
      check: (
        call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>,
        cb: sendUnaryData<HealthCheckResponse>,
      ) => {
        const s = this.statuses.get(call.request.service);
        if (s === undefined) return cb({ code: grpcStatus.NOT_FOUND, details: 'unknown service' }, null);
        cb(null, { status: s });
      },
      watch: (call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => {
        const w = { service: call.request.service, call };
        this.watchers.add(w);
        call.write({ status: this.get(w.service) });
        call.on('cancelled', () => this.watchers.delete(w));
      },
    };
  }
}

import { HealthClient, HealthCheckResponse_ServingStatus as Status } from '@civicgraph/protos/grpc/health/v1/health';
import { Metadata } from '@grpc/grpc-js';
import { call, clientOptions, insecure } from '@civicgraph/kit';

/** Asks a service's grpc.health.v1 whether it is SERVING. */
export interface HealthProbe {
  readonly name: string;
  serving(): Promise<boolean>;
  close(): void;
}

export function healthProbe(name: string, address: string, deadlineMs: number): HealthProbe {
  const client = new HealthClient(address, insecure(), clientOptions(deadlineMs));
  return {
    name,
    async serving() {
      try {
        const res = await call(client.check.bind(client), { service: '' }, new Metadata());
        return res.status === Status.SERVING;
      } catch {
        return false;
      }
    },
    close: () => client.close(),
  };
}

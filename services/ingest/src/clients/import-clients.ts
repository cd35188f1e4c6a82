import { GeoServiceClient } from '@civicgraph/protos/civic/geo/v1/geo';
import { GraphServiceClient } from '@civicgraph/protos/civic/graph/v1/graph';
import {
  call,
  clientOptions,
  fromServiceError,
  IMPORT_MESSAGE_BYTES,
  insecure,
  principalMetadata,
  servicePrincipal,
  type DeploymentEnvironment,
} from '@civicgraph/kit';
import type { BoundaryImport, GraphImport } from '../run/import-staged.js';

/**
 * One import, however large: the full-resolution TIGER map takes minutes on a small
 * machine. A call still unanswered after this is given up and the run retried on backoff.
 */
export const IMPORT_DEADLINE_MS = 30 * 60_000;

/** Whole sources travel in one message (IMPORT_MESSAGE_BYTES says why that size). */
const options = { ...clientOptions(IMPORT_DEADLINE_MS), 'grpc.max_send_message_length': IMPORT_MESSAGE_BYTES };

/**
 * The ingest service's own principal on every import, waiting for the service to be
 * reachable (within the deadline): processes started together (compose, Kubernetes) would
 * otherwise fail the first pass into a backoff because graph or geo was not listening yet.
 */
function asIngest(serves: DeploymentEnvironment): ReturnType<typeof principalMetadata> {
  const md = principalMetadata(servicePrincipal('ingest', serves));
  md.setOptions({ waitForReady: true });
  return md;
}

/** The graph service's ImportSource over gRPC at `address`, called as the ingest service itself. */
export function connectGraphImport(address: string, serves: DeploymentEnvironment): GraphImport & { close(): void } {
  const client = new GraphServiceClient(address, insecure(), options);
  const self = asIngest(serves);
  return {
    importSource: (req) =>
      call(client.importSource.bind(client), req, self).catch((err: unknown) =>
        Promise.reject(fromServiceError(err, 'graph')),
      ),
    close: () => client.close(),
  };
}

/** The geo service's ImportBoundaries over gRPC at `address`, called as the ingest service itself. */
export function connectBoundaryImport(
  address: string,
  serves: DeploymentEnvironment,
): BoundaryImport & { close(): void } {
  const client = new GeoServiceClient(address, insecure(), options);
  const self = asIngest(serves);
  return {
    importBoundaries: (req) =>
      call(client.importBoundaries.bind(client), req, self).catch((err: unknown) =>
        Promise.reject(fromServiceError(err, 'geo')),
      ),
    close: () => client.close(),
  };
}

import {
  IngestServiceClient,
  type ListRunsResponse,
  type ListSourcesResponse,
  type RunSourcesResponse,
} from '@civicgraph/protos/civic/ingest/v1/ingest';
import { clientOptions, insecure } from '@civicgraph/kit';
import { rpcOf } from './rpc.js';

/** The gateway's view of the ingest service, for the admin API. */
export interface IngestUpstream {
  listSources(): Promise<ListSourcesResponse>;
  runSources(sources: string[]): Promise<RunSourcesResponse>;
  listRuns(limit: number): Promise<ListRunsResponse>;
  close(): void;
}

export function connectIngest(address: string, deadlineMs: number): IngestUpstream {
  const client = new IngestServiceClient(address, insecure(), clientOptions(deadlineMs));
  const rpc = rpcOf(client, 'ingest');
  return {
    listSources: () => rpc(client.listSources, {}),
    runSources: (sources) => rpc(client.runSources, { sources }),
    listRuns: (limit) => rpc(client.listRuns, { limit }),
    close: () => client.close(),
  };
}

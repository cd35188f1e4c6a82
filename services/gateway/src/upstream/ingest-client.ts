import { IngestServiceClient, type ListRunsResponse, type ListSourcesResponse, type RunSourcesResponse } from '@civicgraph/protos/civic/ingest/v1/ingest';
import { Metadata } from '@grpc/grpc-js';
import { call, CLIENT_OPTIONS, fromServiceError, insecure, type ClientMethod } from '@civicgraph/kit';

/** The gateway's view of the ingest service, for the admin API. */
export interface IngestUpstream {
  listSources(): Promise<ListSourcesResponse>;
  runSources(sources: string[]): Promise<RunSourcesResponse>;
  listRuns(limit: number): Promise<ListRunsResponse>;
  close(): void;
}

export function connectIngest(address: string, deadlineMs: number): IngestUpstream {
  const client = new IngestServiceClient(address, insecure(), CLIENT_OPTIONS);
  const rpc = async <Req, Res>(method: ClientMethod<Req, Res>, req: Req): Promise<Res> => {
    try {
      return await call(method, req, new Metadata(), deadlineMs);
    } catch (err) {
      throw fromServiceError(err, 'ingest');
    }
  };
  return {
    listSources: () => rpc(client.listSources.bind(client), {}),
    runSources: (sources) => rpc(client.runSources.bind(client), { sources }),
    listRuns: (limit) => rpc(client.listRuns.bind(client), { limit }),
    close: () => client.close(),
  };
}

import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import {
  ExportServiceClient,
  type CreateExportRequest,
  type ExportFileChunk,
  type ExportJob,
  type ReadExportFileRequest,
} from '@civicgraph/protos/civic/graph/v1/exports';
import { clientOptions, insecure } from '@civicgraph/kit';
import { rpcOf } from './rpc.js';

/** The gateway's view of the graph service's exports; every call carries the caller's principal. */
export interface ExportsUpstream {
  create(p: Principal, req: CreateExportRequest): Promise<ExportJob>;
  get(p: Principal, id: string): Promise<ExportJob>;
  list(p: Principal): Promise<ExportJob[]>;
  read(p: Principal, req: ReadExportFileRequest): Promise<ExportFileChunk>;
  close(): void;
}

export function connectExports(address: string, deadlineMs: number): ExportsUpstream {
  const client = new ExportServiceClient(address, insecure(), clientOptions(deadlineMs));
  const rpc = rpcOf(client, 'graph');
  return {
    create: (p, req) => rpc(client.createExport, req, p),
    get: (p, id) => rpc(client.getExport, { id }, p),
    list: async (p) => (await rpc(client.listExports, {}, p)).exports,
    read: (p, req) => rpc(client.readExportFile, req, p),
    close: () => client.close(),
  };
}

import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ExportServiceServer } from '@civicgraph/protos/civic/graph/v1/exports';
import { InvalidParameterError, unary, type Logger } from '@civicgraph/kit';
import type { ServerUnaryCall } from '@grpc/grpc-js';
import { MAX_READ, type Exports } from './exports.js';

/** civic.graph.v1.ExportService: decode, ask the export rules, encode. */
export function exportHandlers(
  exports: Exports,
  principalOf: (call: Pick<ServerUnaryCall<unknown, unknown>, 'metadata'>) => Principal,
  log: Logger,
): ExportServiceServer {
  return {
    createExport: unary(log, 'CreateExport', (req, call) => exports.create(principalOf(call), req)),
    getExport: unary(log, 'GetExport', (req, call) => exports.get(principalOf(call), req.id)),
    listExports: unary(log, 'ListExports', async (_req, call) => ({ exports: await exports.list(principalOf(call)) })),
    readExportFile: unary(log, 'ReadExportFile', async (req, call) => {
      const offset = Number(req.offset);
      if (!Number.isSafeInteger(offset)) throw new InvalidParameterError('offset', 'offset is out of range.');
      const link =
        req.linkSignature === '' ? undefined : { expires: Number(req.linkExpires), signature: req.linkSignature };
      const range = { offset, length: Math.min(req.length || MAX_READ, MAX_READ) };
      const { data, size, sha256 } = await exports.read(principalOf(call), req.id, req.name, range, link);
      return { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), size: String(size), sha256 };
    }),
  };
}

import type { ServerUnaryCall } from '@grpc/grpc-js';
import type { ImportBoundariesRequest, ImportBoundariesResponse } from '@civicgraph/protos/civic/geo/v1/geo';
import { servicePrincipalOf, type Logger } from '@civicgraph/kit';
import { importBoundaryFiles } from '../import/import-boundary-files.js';
import type { Reloader } from '../reloader.js';
import type { BoundaryStore } from '../store/boundary-store.js';

/**
 * ImportBoundaries: a service's import into this service's own store, answered once the
 * index serves it (the reload also publishes what changed), so a caller never needs to ask
 * for a reload of its own — or, with `serve_later`, once it is stored, its reload held for
 * the next import that waits (Reloader.importing).
 */
export function importBoundariesHandler(
  store: BoundaryStore,
  reloader: Pick<Reloader<unknown>, 'importing'>,
  log: Logger,
) {
  return async (
    req: ImportBoundariesRequest,
    call: ServerUnaryCall<ImportBoundariesRequest, ImportBoundariesResponse>,
  ): Promise<ImportBoundariesResponse> => {
    const caller = servicePrincipalOf(call, 'ImportBoundaries');
    const started = performance.now();
    const answer = await reloader.importing(() => importBoundaryFiles(store, req), req.serveLater);
    log.info(
      {
        caller: caller.keyId,
        level: req.level,
        files: req.files.length,
        created: answer.created,
        updated: answer.updated,
        unchanged: answer.unchanged,
        rejected: answer.rejected,
        served: !req.serveLater,
        ms: Math.round(performance.now() - started),
      },
      'boundaries imported',
    );
    return answer;
  };
}

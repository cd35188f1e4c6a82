import { join } from 'node:path';
import {
  connectBoundaryImport,
  connectGraphImport,
  Ingest,
  IngestStore,
  SOURCES,
  type RunRecord,
} from '@civicgraph/ingest';
import { createLogger } from '@civicgraph/kit';
import { SHARED_DATA, type Stack } from './stack.js';

/** The registry's boundary maps: what `civicgraph up` serves beyond us-atlas's states and counties. */
export const MAP_SOURCES = SOURCES.filter((s) => s.import.kind === 'boundaries').map((s) => s.id);

/** The registry's maps but its full-resolution TIGER ones: the 119th Congress at 1:20M and Colorado's legislative maps. */
export const MAP_SOURCES_WITHOUT_TIGER = MAP_SOURCES.filter((id) => !id.startsWith('tiger'));

/**
 * Loads registry sources into a stack as `civicgraph up` does on its first start: the
 * ingest service's own runs, from the shared data folder as the mirror, importing through
 * the stack's graph and geo services over gRPC (geo serves each map once its import
 * answers). Each run must succeed.
 */
export async function loadSources(stack: Stack, ids: readonly string[]): Promise<RunRecord[]> {
  const store = IngestStore.open(join(stack.dataDir, 'ingest', 'state'));
  const graph = connectGraphImport(stack.graph.address, stack.serves);
  const boundaries = connectBoundaryImport(stack.geo.address, stack.serves);
  const ingest = new Ingest({
    origin: { kind: 'folder', path: SHARED_DATA },
    store,
    filesDir: join(stack.dataDir, 'ingest', 'files'),
    graph,
    boundaries,
    now: () => new Date(),
    log: createLogger('test', 'silent'),
  });
  try {
    const runs = await ingest.run(ids);
    const failed = runs.filter((r) => r.status === 'failed');
    if (failed.length > 0)
      throw new Error(`sources failed: ${failed.map((r) => `${r.source}: ${r.error}`).join('; ')}`);
    return runs;
  } finally {
    await ingest.stop();
    graph.close();
    boundaries.close();
    await store.close();
  }
}

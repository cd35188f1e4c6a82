import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Ingest, IngestStore, runView, sourceView, SOURCES, type RunRecord } from '@civicgraph/ingest';
import { createLogger, InvalidParameterError } from '@civicgraph/kit';
import type { CliConfig } from '../config.js';
import { sourceProgress } from './source-progress.js';
import { sourcesOrigin } from './sources-origin.js';

/**
 * `civicgraph sources list|status|run [id…]`: the public sources and what the ingest
 * service knows of them (read from its state in CIVIC_DATA_DIR, as `keys` reads the key
 * store); `run` fetches and imports them now, in this process, as the service would.
 */
export async function sources(config: CliConfig, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [sub, ...ids] = positionals;
  const store = IngestStore.open(join(config.dataDir, 'ingest', 'state'));
  try {
    if (sub === 'list') {
      const list = SOURCES.map((source) => sourceView({ source, state: store.state(source.id) }));
      return values.json ? JSON.stringify(list, null, 2) : listText(list);
    }
    if (sub === 'status') {
      const runs = store.runs(50).map(runView);
      return values.json
        ? JSON.stringify(runs, null, 2)
        : runs
            .map(
              (r) =>
                `${r.startedAt}  ${r.source.padEnd(28)} ${r.status.padEnd(9)} ${r.rows === undefined ? '' : `${r.rows.created} created, ${r.rows.updated} updated, ${r.rows.unchanged} unchanged, ${r.rows.rejected} rejected`}${r.error === '' ? '' : `  ${r.error}`}`,
            )
            .join('\n');
    }
    if (sub === 'run') return runText(await run(config, store, ids), values.json);
  } finally {
    await store.close();
  }
  throw new InvalidParameterError('command', 'usage: civicgraph sources list|status|run [source id…]');
}

function listText(list: ReturnType<typeof sourceView>[]): string {
  return list
    .map(
      (s) =>
        `${s.id.padEnd(28)} ${s.status.padEnd(7)} ${s.version === '' ? '-' : s.version.slice(0, 24)}  last fetch ${s.lastFetchAt || 'never'}${s.rows === undefined ? '' : `  ${s.rows.created} created, ${s.rows.updated} updated, ${s.rows.unchanged} unchanged, ${s.rows.rejected} rejected`}${s.error === '' ? '' : `\n  failed: ${s.error}`}\n  ${s.name} (${s.publisher}; ${s.licence}); every ${s.refreshHours} h; ${s.urls.join(' ')}`,
    )
    .join('\n');
}

function runText(runs: RunRecord[], json: boolean): string {
  if (json) return JSON.stringify(runs.map(runView), null, 2);
  return runs
    .map(
      (r) =>
        `${r.source}: ${r.status}${r.rows === null ? '' : ` (${r.rows.created} created, ${r.rows.updated} updated, ${r.rows.unchanged} unchanged, ${r.rows.rejected} rejected; ${r.events ?? 0} events)`}${r.error === null ? '' : `: ${r.error}`}`,
    )
    .join('\n');
}

async function run(config: CliConfig, store: IngestStore, ids: string[]): Promise<RunRecord[]> {
  // Loaded here, not with the module: `sources list` and `status` need neither service's code.
  const { importBoundaryFiles, LmdbBoundaryStore } = await import('@civicgraph/geo');
  const { GraphWriter, importSource, openGraphStore } = await import('@civicgraph/graph');
  const graphStore = await openGraphStore(config.graphStore, join(config.dataDir, 'graph'));
  const writer = new GraphWriter({ store: graphStore, env: config.env });
  const boundaries = LmdbBoundaryStore.open(join(config.dataDir, 'geo'));
  try {
    const ingest = new Ingest({
      origin: sourcesOrigin(config),
      store,
      filesDir: join(config.dataDir, 'ingest', 'files'),
      // The services' own import code, in this process against their stores: an operator's
      // tool for when the services are stopped (a running geo picks the change up by itself).
      graph: { importSource: (req) => importSource(graphStore, writer, req) },
      boundaries: { importBoundaries: (req) => importBoundaryFiles(boundaries, req) },
      now: () => new Date(),
      log: createLogger('civicgraph', config.logLevel, 2),
      onRun: sourceProgress(ids.length === 0 ? SOURCES.length : ids.length),
    });
    return await ingest.run(ids);
  } finally {
    await boundaries.close();
    await graphStore.close();
  }
}

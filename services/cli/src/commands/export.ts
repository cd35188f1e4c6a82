import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InvalidParameterError, randomBase62, servicePrincipal, type DeploymentEnvironment } from '@civicgraph/kit';
import {
  ArangoGraphStore,
  exportSpecOf,
  FsExportStorage,
  LmdbSnapshots,
  manifestJson,
  runExport,
  type GraphSnapshot,
} from '@civicgraph/graph';
import type { CliConfig } from '../config.js';
import { progressBar } from './export-progress.js';

const list = (v: string | undefined): string[] => (v === undefined ? [] : v.split(',').map((w) => w.trim()));

/**
 * `civicgraph export --out <folder>`: an operator's export of the whole graph (or the kinds,
 * states and formats named) from one consistent snapshot of the store this deployment uses
 * (the embedded store in CIVIC_DATA_DIR, read without loading it into memory, or ArangoDB),
 * written as the API's exports are — verified files, then the manifest with the change-feed
 * position — into `<folder>/<export id>/`. Contact fields only with `--contact`. A progress
 * bar on a terminal.
 */
export async function exportCommand(config: CliConfig, args: string[]): Promise<string> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      kinds: { type: 'string' },
      states: { type: 'string' },
      formats: { type: 'string' },
      'no-edges': { type: 'boolean', default: false },
      contact: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  if (values.out === undefined) throw new InvalidParameterError('out', 'export needs --out <folder>.');
  const operator = servicePrincipal('cli', config.env as DeploymentEnvironment);
  const principal = {
    ...operator,
    entitlements: { contact: values.contact, geography: true, states: [], tiers: [] },
  };
  const spec = exportSpecOf(
    {
      kinds: list(values.kinds),
      states: list(values.states).map((s) => s.toLowerCase()),
      formats: list(values.formats),
      skipEdges: values['no-edges'],
      idempotencyKey: '',
    },
    principal,
  );
  const id = `exp_cli_${randomBase62(12)}`;
  const out = resolve(values.out);
  const { snapshot, close } = await openSnapshot(config);
  const bar = progressBar();
  try {
    const manifest = await runExport(
      snapshot,
      { id, principal, spec, snapshotAt: new Date() },
      new FsExportStorage(out),
      bar.update,
    );
    bar.done();
    if (values.json) return JSON.stringify(manifestJson(id, manifest), null, 2);
    const rows = manifest.files.reduce((n, f) => n + Number(f.rows), 0);
    return [
      `exported ${manifest.files.length} files (${rows.toLocaleString('en-US')} rows) into ${join(out, id)}`,
      `position: seq ${manifest.seq} (apply the change feed's events above it)`,
      ...manifest.files.map((f) => `  ${f.name}  ${Number(f.rows).toLocaleString('en-US')} rows  sha256 ${f.sha256}`),
    ].join('\n');
  } finally {
    await snapshot.close();
    await close();
  }
}

async function openSnapshot(config: CliConfig): Promise<{ snapshot: GraphSnapshot; close: () => Promise<void> }> {
  const store = config.graphStore;
  if (store.kind === 'arangodb') {
    const arango = await ArangoGraphStore.connect(store);
    return { snapshot: await arango.snapshot(), close: () => arango.close() };
  }
  const snapshots = LmdbSnapshots.open(join(config.dataDir, 'graph'));
  return { snapshot: await snapshots.snapshot(), close: () => snapshots.close() };
}

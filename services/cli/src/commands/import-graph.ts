import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { InvalidParameterError, isIsoDate } from '@civicgraph/kit';
import {
  graphImporter,
  GraphWriter,
  openGraphStore,
  rowsSeen,
  runImport,
  summaryText,
  type GraphImportKind,
  type ImportTally,
} from '@civicgraph/graph';
import type { CliConfig } from '../config.js';

/** A one-line counter of rows on a terminal's stderr; silent when stderr is not a terminal. */
function progressLine(label: string): { update: (t: ImportTally) => void; done: () => void } {
  if (!process.stderr.isTTY) return { update: () => {}, done: () => {} };
  let last = 0;
  const draw = (t: ImportTally) =>
    process.stderr.write(
      `\r${label}: ${rowsSeen(t)} rows (${t.createdRows} created, ${t.updatedRows} updated, ${t.unchangedRows} unchanged, ${t.rejected.length} rejected)`,
    );
  let latest: ImportTally | undefined;
  return {
    update: (t) => {
      latest = t;
      const now = Date.now();
      if (now - last >= 100) {
        last = now;
        draw(t);
      }
    },
    done: () => {
      if (latest !== undefined) draw(latest);
      process.stderr.write('\n');
    },
  };
}

/**
 * `civicgraph import <ocd|legislators|openstates-people|fec-candidates|results|vip> <path>`: reads a public
 * source into the election graph (the embedded store in CIVIC_DATA_DIR, or ArangoDB with
 * GRAPH_STORE=arangodb, as the graph service is configured), one atomic batch per source row,
 * through the same GraphWriter the graph service uses (events go to its outbox; a running
 * service picks the changes up and publishes them). Re-running it changes nothing.
 */
export async function importGraph(config: CliConfig, kind: GraphImportKind, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      cycle: { type: 'string' },
      legislators: { type: 'string' },
      'as-of': { type: 'string' },
      'retrieved-at': { type: 'string' },
      places: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const path = positionals[0];
  if (path === undefined || positionals.length > 1)
    throw new InvalidParameterError('path', `Name exactly one file or folder to import as ${kind}.`);
  const cycle = values.cycle === undefined ? undefined : Number(values.cycle);
  if (cycle !== undefined && !(Number.isInteger(cycle) && cycle % 2 === 0 && cycle >= 1976 && cycle <= 2100)) {
    throw new InvalidParameterError('cycle', `--cycle must be an even year such as 2026, got "${values.cycle}".`);
  }
  const asOf = values['as-of'];
  if (asOf !== undefined && !isIsoDate(asOf))
    throw new InvalidParameterError('as-of', `--as-of must be a date written YYYY-MM-DD, got "${asOf}".`);
  const retrievedAt = values['retrieved-at'];
  if (retrievedAt !== undefined && Number.isNaN(new Date(retrievedAt).getTime())) {
    throw new InvalidParameterError(
      'retrieved-at',
      `--retrieved-at must be a date (YYYY-MM-DD) or an RFC 3339 instant, got "${retrievedAt}".`,
    );
  }
  const store = await openGraphStore(config.graphStore, join(config.dataDir, 'graph'));
  try {
    const writer = new GraphWriter({ store, env: config.env });
    const items = await graphImporter(kind, path, store, {
      ...(cycle === undefined ? {} : { cycle }),
      ...(values.legislators === undefined ? {} : { legislators: values.legislators }),
      ...(asOf === undefined ? {} : { asOf }),
      ...(retrievedAt === undefined ? {} : { retrievedAt }),
      ...(values.places === undefined ? {} : { places: values.places }),
    });
    const progress = progressLine(`importing ${kind} ${path}`);
    try {
      const tally = await runImport(items, writer, progress.update);
      return values.json ? JSON.stringify({ kind, path, ...tally }, null, 2) : summaryText(`${kind} ${path}`, tally);
    } finally {
      progress.done();
    }
  } finally {
    await store.close();
  }
}

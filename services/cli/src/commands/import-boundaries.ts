import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importBoundaries, LmdbBoundaryStore, type ImportPhase, type ImportSummary } from '@civicgraph/geo';
import { InvalidParameterError, levelFromRest, LEVELS, restLevel } from '@civicgraph/kit';
import type { Validity } from '@civicgraph/geo';
import type { CliConfig } from '../config.js';

const PHASES: ImportPhase[] = ['reading', 'deriving', 'storing', 'done'];

/** A one-line progress bar on a terminal's stderr; silent when stderr is not a terminal. */
function progressBar(label: string): (p: ImportPhase) => void {
  if (!process.stderr.isTTY) return () => {};
  return (phase) => {
    const done = PHASES.indexOf(phase) + 1;
    const bar = '#'.repeat(done * 5).padEnd(PHASES.length * 5, '.');
    process.stderr.write(`\r${label} [${bar}] ${phase.padEnd(8)}${phase === 'done' ? '\n' : ''}`);
  };
}

function summaryText(s: ImportSummary): string {
  const c = s.change;
  const lines = [
    `${s.file}: ${s.format}, ${s.crs.reprojected ? `reprojected from ${s.crs.name}` : s.crs.name}, ${s.features} features`,
    `imported ${c.created.length + c.updated.length + c.unchanged} regions: ${c.created.length} created, ${c.updated.length} updated, ${c.unchanged} unchanged, ${c.deleted.length} deleted`,
    `skipped ${s.skipped.length}, rejected ${s.rejected.length}`,
    ...s.skipped.map((f) => `  skipped feature ${f.index}: ${f.reason}`),
    ...s.rejected.map((f) => `  rejected feature ${f.index}: ${f.reason}`),
  ];
  return lines.join('\n');
}

/** `civicgraph import boundaries <file> --level <level> [--valid-from …] …`; returns what to print. */
export async function importBoundariesCommand(config: CliConfig, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      level: { type: 'string' },
      state: { type: 'string' },
      'valid-from': { type: 'string' },
      'valid-to': { type: 'string' },
      'elections-from': { type: 'string' },
      'elections-to': { type: 'string' },
      'code-field': { type: 'string' },
      'name-field': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const path = positionals[0];
  if (path === undefined || positionals.length > 1) throw new InvalidParameterError('file', 'Name exactly one boundary file to import.');
  const level = values.level === undefined ? undefined : levelFromRest(values.level);
  if (level === undefined) {
    throw new InvalidParameterError('level', `--level must be one of ${LEVELS.map(restLevel).filter((l) => l !== 'national').join(', ')}.`);
  }
  const validity: Validity = {
    ...(values['valid-from'] === undefined ? {} : { from: values['valid-from'] }),
    ...(values['valid-to'] === undefined ? {} : { to: values['valid-to'] }),
    ...(values['elections-from'] === undefined ? {} : { electionsFrom: values['elections-from'] }),
    ...(values['elections-to'] === undefined ? {} : { electionsTo: values['elections-to'] }),
  };
  const store = LmdbBoundaryStore.open(join(config.dataDir, 'geo'));
  try {
    const summary = await importBoundaries(
      store,
      {
        path,
        level,
        ...(values.state === undefined ? {} : { state: values.state }),
        ...(Object.keys(validity).length === 0 ? {} : { validity }),
        ...(values['code-field'] === undefined ? {} : { codeField: values['code-field'] }),
        ...(values['name-field'] === undefined ? {} : { nameField: values['name-field'] }),
      },
      progressBar(`importing ${path}`),
    );
    return values.json ? JSON.stringify(summary, null, 2) : summaryText(summary);
  } finally {
    await store.close();
  }
}

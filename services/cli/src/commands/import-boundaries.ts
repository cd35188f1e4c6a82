import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importBoundaries, ImportRefusedError, layerName, LmdbBoundaryStore, type ImportPhase, type ImportSummary, type Validity } from '@civicgraph/geo';
import { InvalidParameterError, levelFromRest, LEVELS, restLevel } from '@civicgraph/kit';
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
  const byCode = Object.entries(s.rejectedByCode).map(([code, n]) => `${n} ${code}`).join(', ');
  const lines = [
    `${s.file}: ${s.format}, ${s.crs.reprojected ? `reprojected from ${s.crs.name}` : s.crs.name}, ${s.features} features`,
    `imported ${c.created.length + c.updated.length + c.unchanged} regions: ${c.created.length} created, ${c.updated.length} updated, ${c.unchanged} unchanged, ${c.deleted.length} deleted`,
    ...s.layers.map((l) => `  ${layerName(l.key)}: ${l.created.length} created, ${l.updated.length} updated, ${l.unchanged} unchanged, ${l.deleted.length} deleted`),
    `skipped ${s.skipped.length}, rejected ${s.rejected.length}${byCode === '' ? '' : ` (${byCode})`}`,
    ...s.skipped.map((f) => `  skipped feature ${f.index}: ${f.reason}`),
    ...s.rejected.map((f) => `  rejected feature ${f.index} (${f.code}): ${f.reason}`),
  ];
  return lines.join('\n');
}

const OPTIONS = {
  level: { type: 'string' },
  state: { type: 'string' },
  'valid-from': { type: 'string' },
  'valid-to': { type: 'string' },
  'elections-from': { type: 'string' },
  'elections-to': { type: 'string' },
  undated: { type: 'boolean', default: false },
  'code-field': { type: 'string' },
  'name-field': { type: 'string' },
  replace: { type: 'boolean', default: false },
  'max-delete-fraction': { type: 'string' },
  strict: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

/** The validity the flags give: `--valid-from` is required, unless `--undated` says the map has no dates. */
function validityOf(values: { [k: string]: string | boolean | undefined }): Validity | undefined {
  const date = (flag: string) => values[flag] as string | undefined;
  const validity: Validity = {
    ...(date('valid-from') === undefined ? {} : { from: date('valid-from')! }),
    ...(date('valid-to') === undefined ? {} : { to: date('valid-to')! }),
    ...(date('elections-from') === undefined ? {} : { electionsFrom: date('elections-from')! }),
    ...(date('elections-to') === undefined ? {} : { electionsTo: date('elections-to')! }),
  };
  if (values['undated'] === true) {
    if (Object.keys(validity).length > 0) throw new InvalidParameterError('--undated', '--undated cannot be combined with --valid-from, --valid-to, --elections-from or --elections-to.');
    return undefined;
  }
  if (validity.from === undefined) {
    throw new InvalidParameterError('--valid-from', '--valid-from is required: the day the map takes effect (YYYY-MM-DD). Pass --undated for a map in force on every date until a dated one supersedes it.');
  }
  return validity;
}

function fraction(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const f = Number(text);
  if (text.trim() === '' || !Number.isFinite(f) || f < 0 || f > 1) throw new InvalidParameterError('--max-delete-fraction', `--max-delete-fraction must be a number from 0 to 1, got "${text}".`);
  return f;
}

/**
 * `civicgraph import boundaries <file> --level <level> --valid-from … | --undated …`;
 * returns what to print. A refused import prints what it would have done, then fails.
 */
export async function importBoundariesCommand(config: CliConfig, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  const path = positionals[0];
  if (path === undefined || positionals.length > 1) throw new InvalidParameterError('file', 'Name exactly one boundary file to import.');
  const level = values.level === undefined ? undefined : levelFromRest(values.level);
  if (level === undefined) {
    throw new InvalidParameterError('--level', `--level must be one of ${LEVELS.map(restLevel).filter((l) => l !== 'national').join(', ')}.`);
  }
  const validity = validityOf(values);
  const maxDeleteFraction = fraction(values['max-delete-fraction']);
  const store = LmdbBoundaryStore.open(join(config.dataDir, 'geo'));
  try {
    const summary = await importBoundaries(
      store,
      {
        path,
        level,
        ...(values.state === undefined ? {} : { state: values.state }),
        ...(validity === undefined ? {} : { validity }),
        ...(values['code-field'] === undefined ? {} : { codeField: values['code-field'] }),
        ...(values['name-field'] === undefined ? {} : { nameField: values['name-field'] }),
        ...(maxDeleteFraction === undefined ? {} : { maxDeleteFraction }),
        replace: values.replace,
        strict: values.strict,
      },
      progressBar(`importing ${path}`),
    );
    return values.json ? JSON.stringify(summary, null, 2) : summaryText(summary);
  } catch (err) {
    if (err instanceof ImportRefusedError) {
      process.stdout.write(`${values.json ? JSON.stringify({ ...err.summary, refused: { field: err.field, detail: err.message } }, null, 2) : summaryText(err.summary)}\n`);
    }
    throw err;
  } finally {
    await store.close();
  }
}

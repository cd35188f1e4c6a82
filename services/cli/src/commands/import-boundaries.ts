import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  importBoundaries,
  ImportRefusedError,
  layerName,
  LmdbBoundaryStore,
  type FileReport,
  type ImportProgress,
  type ImportSummary,
  type Validity,
} from '@civicgraph/geo';
import { InvalidParameterError, levelFromRest, LEVELS, restLevel } from '@civicgraph/kit';
import type { CliConfig } from '../config.js';

/**
 * Progress on stderr: on a terminal one line redrawn in place, otherwise a line per file
 * read (so a log shows where a long import is).
 */
function progressReport(): (p: ImportProgress) => void {
  const tty = process.stderr.isTTY === true;
  return ({ phase, file, files, path }) => {
    const text =
      phase === 'reading'
        ? `reading ${file}/${files} ${path}`
        : phase === 'storing'
          ? `storing ${files} file(s)`
          : `done: ${files} file(s)`;
    if (tty) process.stderr.write(`\r\x1b[2K${text}${phase === 'done' ? '\n' : ''}`);
    else if (phase !== 'done') process.stderr.write(`${text}\n`);
  };
}

function fileLine(f: FileReport): string {
  const crs = f.crs.reprojected ? `reprojected from ${f.crs.name}` : f.crs.name;
  return `${f.file}: ${f.format}, ${crs}, ${f.features} features, ${f.scale === 0 ? 'full resolution' : `generalised 1:${f.scale.toLocaleString('en-US')}`}`;
}

function summaryText(s: ImportSummary): string {
  const c = s.change;
  const byCode = Object.entries(s.rejectedByCode)
    .map(([code, n]) => `${n} ${code}`)
    .join(', ');
  const lines = [
    ...s.files.map(fileLine),
    `imported ${c.created.length + c.updated.length + c.unchanged} regions: ${c.created.length} created, ${c.updated.length} updated, ${c.unchanged} unchanged, ${c.deleted.length} deleted`,
    ...s.layers.map(
      (l) =>
        `  ${layerName(l.key)}: ${l.created.length} created, ${l.updated.length} updated, ${l.unchanged} unchanged, ${l.deleted.length} deleted`,
    ),
    `skipped ${s.skipped.length}, rejected ${s.rejected.length}${byCode === '' ? '' : ` (${byCode})`}`,
    ...s.skipped.map((f) => `  skipped ${f.file} feature ${f.index}: ${f.reason}`),
    ...s.rejected.map((f) => `  rejected ${f.file} feature ${f.index} (${f.code}): ${f.reason}`),
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
  scale: { type: 'string' },
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
    if (Object.keys(validity).length > 0)
      throw new InvalidParameterError(
        '--undated',
        '--undated cannot be combined with --valid-from, --valid-to, --elections-from or --elections-to.',
      );
    return undefined;
  }
  if (validity.from === undefined) {
    throw new InvalidParameterError(
      '--valid-from',
      '--valid-from is required: the day the map takes effect (YYYY-MM-DD). Pass --undated for a map in force on every date until a dated one supersedes it.',
    );
  }
  return validity;
}

/** `--scale 1:20000000`, `20m`, `500k` or `20000000`: a generalised map's scale denominator. */
function scaleOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const word = text.trim().toLowerCase().replace(/^1:/, '').replaceAll(',', '');
  const m = /^(\d+(?:\.\d+)?)([km]?)$/.exec(word);
  const n = m === null ? NaN : Number(m[1]) * (m[2] === 'k' ? 1_000 : m[2] === 'm' ? 1_000_000 : 1);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidParameterError(
      '--scale',
      `--scale must be a map scale such as 1:20000000, 20m or 500k, got "${text}".`,
    );
  return n;
}

function fraction(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const f = Number(text);
  if (text.trim() === '' || !Number.isFinite(f) || f < 0 || f > 1)
    throw new InvalidParameterError(
      '--max-delete-fraction',
      `--max-delete-fraction must be a number from 0 to 1, got "${text}".`,
    );
  return f;
}

/**
 * `civicgraph import boundaries <file|folder>… --level <level> --valid-from … | --undated …`:
 * every file named, and every boundary file of every folder named, as one map in one
 * transaction; returns what to print. A refused import prints what it would have done,
 * then fails.
 */
export async function importBoundariesCommand(config: CliConfig, args: string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  if (positionals.length === 0)
    throw new InvalidParameterError('file', 'Name the boundary files or folders to import.');
  const level = values.level === undefined ? undefined : levelFromRest(values.level);
  if (level === undefined) {
    throw new InvalidParameterError(
      '--level',
      `--level must be one of ${LEVELS.map(restLevel)
        .filter((l) => l !== 'national')
        .join(', ')}.`,
    );
  }
  const validity = validityOf(values);
  const maxDeleteFraction = fraction(values['max-delete-fraction']);
  const scale = scaleOf(values.scale);
  const store = LmdbBoundaryStore.open(join(config.dataDir, 'geo'));
  try {
    const summary = await importBoundaries(
      store,
      {
        path: positionals,
        level,
        ...(scale === undefined ? {} : { scale }),
        ...(values.state === undefined ? {} : { state: values.state }),
        ...(validity === undefined ? {} : { validity }),
        ...(values['code-field'] === undefined ? {} : { codeField: values['code-field'] }),
        ...(values['name-field'] === undefined ? {} : { nameField: values['name-field'] }),
        ...(maxDeleteFraction === undefined ? {} : { maxDeleteFraction }),
        replace: values.replace,
        strict: values.strict,
      },
      progressReport(),
    );
    return values.json ? JSON.stringify(summary, null, 2) : summaryText(summary);
  } catch (err) {
    if (err instanceof ImportRefusedError) {
      process.stdout.write(
        `${values.json ? JSON.stringify({ ...err.summary, refused: { field: err.field, detail: err.message } }, null, 2) : summaryText(err.summary)}\n`,
      );
    }
    throw err;
  } finally {
    await store.close();
  }
}

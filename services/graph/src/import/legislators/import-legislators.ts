import { basename } from 'node:path';
import { slugKey, todayUtc } from '@civicgraph/kit';
import type { DraftItem, PlainDraft } from '../../domain/drafts.js';
import { batchItem, rejected } from '../shared/batch.js';
import { provenanceDraft, retrievedAt } from '../shared/provenance.js';
import { readTextFile, type SourceEncoding } from '../shared/text-file.js';
import { readRecord } from './record.js';
import { recordBatch, type TermsChoice } from './record-batch.js';
import { yamlRecords } from './yaml-records.js';

export interface LegislatorsImportOptions {
  /** YYYY-MM-DD a legislator's last term must cover to be current. Default: today (UTC). */
  asOf?: string;
  /** When the file was fetched; default: its mtime. */
  retrievedAt?: string | Date;
  /** How the file was delivered dates it (HTTP Last-Modified, a mirror's snapshot): used when no `retrievedAt` is given. */
  sourceDate?: string;
  /** Which terms become HOLDS edges; default `all` for executive.yaml, else `current-seat`. */
  terms?: TermsChoice;
  encoding?: SourceEncoding;
}

/**
 * `civicgraph import legislators <file>`: a congress-legislators YAML file
 * (legislators-current.yaml, executive.yaml) → persons, federal offices, parties and
 * officeholder terms (HOLDS edges), one item per record. A record without a usable current
 * term is rejected with the reason; a malformed file ends in an ImportFileError.
 */
export async function* importLegislators(
  path: string,
  options: LegislatorsImportOptions = {},
): AsyncGenerator<DraftItem> {
  const file = await readTextFile(path, options.encoding);
  const records = yamlRecords(file.text, path);
  const label = basename(path);
  const provenance = legislatorsProvenance(
    label,
    retrievedAt(options.retrievedAt, undefined, path, options.sourceDate),
  );
  const ctx = {
    provenance,
    asOf: options.asOf ?? todayUtc(),
    terms: options.terms ?? (label === 'executive.yaml' ? 'all' : 'current-seat'),
  } as const;
  const seen = new Map<string, string>();
  for (const { index, line, value } of records) {
    const record = readRecord(value);
    const at = `${label} record ${index}${'key' in record ? ` (${record.key.scheme} ${record.key.id})` : ''} at line ${line}`;
    if ('reason' in record) {
      yield rejected(at, record.reason);
      continue;
    }
    const id = `${record.key.scheme} ${record.key.id}`;
    const first = seen.get(id);
    if (first !== undefined) {
      yield rejected(at, `${id} is listed twice (first: ${first})`);
      continue;
    }
    seen.set(id, `record ${index}`);
    const batch = recordBatch(record, ctx);
    yield 'reason' in batch ? rejected(at, batch.reason) : batchItem(at, batch);
  }
}

/** `provenance:congress-legislators-current` / `-executive`: one record per file. */
function legislatorsProvenance(file: string, at: string): PlainDraft<'provenance'> {
  const stem = slugKey(file.replace(/\.ya?ml$/i, '').replace(/^legislators-/, ''));
  return provenanceDraft({
    key: `congress-legislators-${stem}`,
    source: `congress-legislators ${file}`,
    url: `https://github.com/unitedstates/congress-legislators/blob/main/${file}`,
    publisher: 'The @unitedstates project (unitedstates/congress-legislators)',
    licence: 'CC0-1.0',
    retrievedAt: at,
    method: 'import',
  });
}

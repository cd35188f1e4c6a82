import type { KnownCandidate } from '../fec/known-candidates.js';
import { readTextFile } from '../shared/text-file.js';
import { readRecord } from './record.js';
import { legislatorPersonSlug } from './record-batch.js';
import { yamlRecords } from './yaml-records.js';

/**
 * FEC candidate id → the legislator's person slug and, for a senator, their Senate terms, from a congress-legislators file's `id.fec` lists. The FEC importer takes it
 * as `known` so a sitting member's candidacy points at the person the legislators import
 * made, not at a second one.
 */
export async function fecPersonIndex(path: string): Promise<Map<string, KnownCandidate>> {
  const file = await readTextFile(path);
  const index = new Map<string, KnownCandidate>();
  for (const { value } of yamlRecords(file.text, path)) {
    const record = readRecord(value);
    if ('reason' in record) continue;
    const senateTerms = record.terms.flatMap((t) =>
      t.type === 'sen' && t.state !== undefined && t.class !== undefined
        ? [{ state: t.state.toLowerCase(), senateClass: t.class, start: t.start, end: t.end }]
        : [],
    );
    const senate = senateTerms.length === 0 ? {} : { senateTerms };
    for (const fec of record.ids.fec ?? [])
      index.set(fec.toUpperCase(), { person: legislatorPersonSlug(record.key.id, record.key.scheme), ...senate });
  }
  return index;
}

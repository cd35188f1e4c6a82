import type { KnownCandidate } from '../fec/known-candidates.js';
import { readTextFile } from '../shared/text-file.js';
import { readRecord } from './record.js';
import { legislatorPersonSlug } from './record-batch.js';
import { yamlRecords } from './yaml-records.js';

/**
 * FEC candidate id → the legislator's person slug and, for a senator, the seat of their
 * last term, from a congress-legislators file's `id.fec` lists. The FEC importer takes it
 * as `known` so a sitting member's candidacy points at the person the legislators import
 * made, not at a second one.
 */
export async function fecPersonIndex(path: string): Promise<Map<string, KnownCandidate>> {
  const file = await readTextFile(path);
  const index = new Map<string, KnownCandidate>();
  for (const { value } of yamlRecords(file.text, path)) {
    const record = readRecord(value);
    if ('reason' in record) continue;
    const last = record.terms[record.terms.length - 1]!;
    const senate =
      last.type === 'sen' && last.state !== undefined && last.class !== undefined
        ? { senateSeat: { state: last.state.toLowerCase(), senateClass: last.class, termEnd: last.end } }
        : {};
    for (const fec of record.ids.fec ?? [])
      index.set(fec.toUpperCase(), { person: legislatorPersonSlug(record.key.id, record.key.scheme), ...senate });
  }
  return index;
}

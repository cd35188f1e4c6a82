import { readTextFile } from '../shared/text-file.js';
import { readRecord } from './record.js';
import { legislatorPersonSlug } from './record-batch.js';
import { yamlRecords } from './yaml-records.js';

/**
 * FEC candidate id → the legislator's person slug, from a congress-legislators file's
 * `id.fec` lists. The FEC importer takes it as `personSlugs` so a sitting member's
 * candidacy points at the person the legislators import made, not at a second one.
 */
export async function fecPersonIndex(path: string): Promise<Map<string, string>> {
  const file = await readTextFile(path);
  const index = new Map<string, string>();
  for (const { value } of yamlRecords(file.text, path)) {
    const record = readRecord(value);
    if ('reason' in record) continue;
    for (const fec of record.ids.fec ?? []) index.set(fec.toUpperCase(), legislatorPersonSlug(record.key.id, record.key.scheme));
  }
  return index;
}

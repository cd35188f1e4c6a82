import type { DraftItem } from '../../domain/drafts.js';
import { headeredRows } from '../shared/csv.js';
import { rejected } from '../shared/batch.js';
import { parseOcdId } from './ocd-id.js';

/** Canonical OCD id → the other ids naming the same division, sorted. */
export type AliasIndex = ReadonlyMap<string, readonly string[]>;

/**
 * Reads aliases.csv (`id,sameAs,…`: `id` is the non-canonical id, `sameAs` the one the
 * division is listed under) into an index by canonical id, with a rejection for each row
 * whose ids are not US OCD ids. Alias ids are often ids that cannot be canonical
 * (`state:dc` for `district:dc`), so only their prefix is checked.
 */
export function readAliases(text: string, file: string, label: string): { index: AliasIndex; rejections: DraftItem[] } {
  const index = new Map<string, string[]>();
  const rejections: DraftItem[] = [];
  for (const row of headeredRows(text, file, ['id', 'sameAs'])) {
    const at = `${label} line ${row.line}`;
    const alias = row.values.id!.trim();
    const canonical = row.values.sameAs!.trim();
    if (row.shape !== undefined) rejections.push(rejected(at, row.shape));
    else if (!alias.startsWith('ocd-division/country:us'))
      rejections.push(rejected(at, `id "${alias}" is not a US OCD division id`));
    else if (parseOcdId(canonical) === undefined)
      rejections.push(rejected(at, `sameAs "${canonical}" is not a US OCD division id`));
    else index.set(canonical, [...(index.get(canonical) ?? []), alias]);
  }
  for (const [k, v] of index) index.set(k, [...new Set(v)].sort());
  return { index, rejections };
}

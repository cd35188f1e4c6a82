import { LmdbGraphStore } from '../store/lmdb/lmdb-graph-store.js';

/**
 * An LMDB graph store at `path` holding `count` party nodes (`party:p00000`, …) with the
 * data `dataOf` gives each: a table for the export tests to write. Test-only (left out of
 * the build).
 */
export async function storeOfParties(
  path: string,
  count: number,
  dataOf: (i: number) => Record<string, unknown>,
): Promise<LmdbGraphStore> {
  const store = await LmdbGraphStore.open(path);
  const put = Array.from({ length: count }, (_, i) => ({
    node: {
      slug: `party:p${String(i).padStart(5, '0')}`,
      kind: 'party' as const,
      state: '',
      tier: '' as const,
      data: dataOf(i) as never,
      rev: 1,
      updatedAt: '2026-11-01T00:00:00.000Z',
    },
    expectRev: 0,
  }));
  await store.commit({ put, remove: [], link: [], unlink: [], events: [] });
  return store;
}

import { describe, expect, it } from 'vitest';
import { MemoryGraphStore } from './memory/memory-graph-store.js';
import { queryAll } from './query-all.js';

const party = (i: number) => ({
  node: {
    slug: `party:p-${String(i).padStart(5, '0')}`,
    kind: 'party' as const,
    state: '',
    tier: '' as const,
    data: { name: `P${i}`, abbreviation: 'P' },
    rev: 1,
    updatedAt: '2026-01-01T00:00:00.000Z',
  },
  expectRev: 0,
});

describe('queryAll', () => {
  it('follows the store past one page, without gaps or repeats', async () => {
    const store = new MemoryGraphStore();
    await store.commit({
      put: Array.from({ length: 2_345 }, (_, i) => party(i)),
      remove: [],
      link: [],
      unlink: [],
      events: [],
    });
    const all = await queryAll(store, { kind: 'party' });
    expect(all).toHaveLength(2_345);
    expect(new Set(all.map((n) => n.slug)).size).toBe(2_345);
    expect((await store.query({ kind: 'party', limit: 1000 })).nodes).toHaveLength(1000);
  });
});

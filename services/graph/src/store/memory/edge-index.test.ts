import { describe, expect, it } from 'vitest';
import type { EdgeDoc } from '../../model/nodes.js';
import { EdgeIndex } from './edge-index.js';

const e = (from: string, to: string, key = ''): EdgeDoc => ({ kind: 'OF_PARTY', from, to, key, data: {} });

describe('EdgeIndex', () => {
  it('keeps a hub with many in-edges consistent through unlinks and removal', () => {
    const idx = new EdgeIndex();
    for (let i = 0; i < 200; i++) idx.link(e(`candidacy:c${i}`, 'party:dem'));
    for (let i = 0; i < 200; i += 3) expect(idx.unlink(e(`candidacy:c${i}`, 'party:dem'))).toBe(true);
    expect(idx.unlink(e('candidacy:c0', 'party:dem'))).toBe(false);
    const left = idx.list('party:dem', 'in').map((x) => x.from);
    expect(new Set(left).size).toBe(left.length);
    expect(left.sort()).toEqual(
      Array.from({ length: 200 }, (_, i) => i)
        .filter((i) => i % 3 !== 0)
        .map((i) => `candidacy:c${i}`)
        .sort(),
    );
    for (const from of left) expect(idx.get(e(from, 'party:dem'))).toBeDefined();
    expect(idx.removeTouching('party:dem')).toHaveLength(left.length);
    expect(idx.size).toBe(0);
    expect(idx.list('candidacy:c1', 'out')).toEqual([]);
  });

  it('counts a self-loop once and removes it with its node', () => {
    const idx = new EdgeIndex();
    idx.link(e('region:x', 'region:x'));
    expect(idx.touching('region:x')).toHaveLength(1);
    expect(idx.removeTouching('region:x')).toHaveLength(1);
    expect(idx.size).toBe(0);
  });
});

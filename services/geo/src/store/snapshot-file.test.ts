import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSnapshot, SnapshotError, writeSnapshot } from './snapshot-file.js';

const dir = mkdtempSync(join(tmpdir(), 'civic-snapfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  norm(): number {
    return Math.hypot(this.x, this.y);
  }
}

describe('snapshot files', () => {
  it('keep typed arrays, Maps, class instances, shared references, cycles and non-finite numbers', () => {
    const shared = new Float64Array([1.5, NaN, -Infinity, 4]);
    const node: Record<string, unknown> = {
      name: 'a',
      values: shared,
      again: shared,
      missing: undefined,
      empty: null,
      flag: true,
    };
    node['self'] = node;
    const root = {
      node,
      map: new Map<string, unknown>([
        ['k', new Uint16Array([7, 8, 9])],
        ['n', 3],
      ]),
      list: [new Point(3, 4), new Uint8Array([1, 2, 3]), new Int32Array([-1]), 'text', Infinity],
      odd: new Uint8Array(5), // unaligned lengths must not misalign what follows
      after: new Float64Array([2.25]),
    };
    const path = join(dir, 'graph.snapshot');
    writeSnapshot(path, root, { Point });
    const back = readSnapshot(path, { Point }) as typeof root;
    expect([...(back.node['values'] as Float64Array)]).toEqual([1.5, NaN, -Infinity, 4]);
    expect(back.node['again']).toBe(back.node['values']);
    expect(back.node['self']).toBe(back.node);
    expect(back.node).toHaveProperty('missing', undefined);
    expect(back.node).toMatchObject({ name: 'a', empty: null, flag: true });
    expect([...(back.map.get('k') as Uint16Array)]).toEqual([7, 8, 9]);
    expect(back.map.get('n')).toBe(3);
    expect(back.list[0]).toBeInstanceOf(Point);
    expect((back.list[0] as Point).norm()).toBe(5);
    expect(back.list.slice(3)).toEqual(['text', Infinity]);
    expect([...back.after]).toEqual([2.25]);
  });

  it("views the file's bytes instead of copying each array", () => {
    const path = join(dir, 'views.snapshot');
    writeSnapshot(path, { a: new Float64Array(1000).fill(1), b: new Uint32Array(10) }, {});
    const back = readSnapshot(path, {}) as { a: Float64Array; b: Uint32Array };
    expect(back.a.buffer).toBe(back.b.buffer);
    expect(back.a.buffer.byteLength).toBeGreaterThanOrEqual(8000);
  });

  it('refuses what it cannot restore, and a file that is not a snapshot', () => {
    expect(() => writeSnapshot(join(dir, 'x.snapshot'), { p: new Point(1, 2) }, {})).toThrow(SnapshotError);
    expect(() => writeSnapshot(join(dir, 'y.snapshot'), { f: () => 1 }, {})).toThrow(SnapshotError);
    const path = join(dir, 'point.snapshot');
    writeSnapshot(path, { p: new Point(1, 2) }, { Point });
    expect(() => readSnapshot(path, {})).toThrow(/unknown class Point/);
    const garbage = join(dir, 'garbage.snapshot');
    writeFileSync(garbage, 'not a snapshot at all');
    expect(() => readSnapshot(garbage, {})).toThrow(SnapshotError);
    expect(readFileSync(path).subarray(0, 8).toString()).toBe('CGSNAP01');
  });
});

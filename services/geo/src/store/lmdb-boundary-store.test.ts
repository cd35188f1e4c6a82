import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Level, type RegionRecord } from '../domain/region.js';
import { LmdbBoundaryStore } from './lmdb-boundary-store.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function path(): string {
  const d = mkdtempSync(join(tmpdir(), 'civic-bstore-'));
  dirs.push(d);
  return d;
}

const square = (x: number) => ({ type: 'Polygon' as const, coordinates: [[[x, 0], [x + 1, 0], [x + 1, 1], [x, 1], [x, 0]]] });
const cd = (n: number, x = n, from = '2025-01-03'): RegionRecord => ({
  slug: `region:nc-cd-${n}`, name: `District ${n}`, level: Level.LEVEL_CONGRESSIONAL_DISTRICT, fips: `37${n}`, ocdId: '', state: 'nc',
  geometry: square(x), validity: { from },
});
const layer = { level: Level.LEVEL_CONGRESSIONAL_DISTRICT, state: 'nc', validFrom: '2025-01-03' };

describe('LmdbBoundaryStore', () => {
  it('creates, then on an identical re-import changes nothing and keeps the generation', async () => {
    const store = LmdbBoundaryStore.open(path());
    const first = store.replaceLayer(layer, [cd(1), cd(2)]);
    expect(first).toEqual({ created: ['region:nc-cd-1@2025-01-03', 'region:nc-cd-2@2025-01-03'], updated: [], deleted: [], unchanged: 0 });
    const generation = store.generation();
    expect(store.replaceLayer(layer, [cd(1), cd(2)])).toEqual({ created: [], updated: [], deleted: [], unchanged: 2 });
    expect(store.generation()).toBe(generation);
    await store.close();
  });

  it('replaces a layer: changed versions update, missing ones are deleted', async () => {
    const store = LmdbBoundaryStore.open(path());
    store.replaceLayer(layer, [cd(1), cd(2)]);
    const change = store.replaceLayer(layer, [cd(1, 5)]);
    expect(change).toEqual({ created: [], updated: ['region:nc-cd-1@2025-01-03'], deleted: ['region:nc-cd-2@2025-01-03'], unchanged: 0 });
    expect(store.list().map((r) => r.slug)).toEqual(['region:nc-cd-1']);
    await store.close();
  });

  it('keeps two dated maps of the same districts side by side', async () => {
    const store = LmdbBoundaryStore.open(path());
    store.replaceLayer({ ...layer, validFrom: '2023-01-03' }, [cd(1, 0, '2023-01-03')]);
    store.replaceLayer(layer, [cd(1, 3)]);
    expect(store.list().map((r) => r.validity?.from).sort()).toEqual(['2023-01-03', '2025-01-03']);
    await store.close();
  });

  it('another handle on the same directory (the CLI) sees the change and the new generation', async () => {
    const dir = path();
    const server = LmdbBoundaryStore.open(dir);
    const before = server.generation();
    const cli = LmdbBoundaryStore.open(dir);
    cli.replaceLayer(layer, [cd(7)]);
    await cli.close();
    expect(server.generation()).toBe(before + 1);
    expect(server.list().map((r) => r.slug)).toEqual(['region:nc-cd-7']);
    await server.close();
  });

  it('survives a reopen', async () => {
    const dir = path();
    const a = LmdbBoundaryStore.open(dir);
    a.replaceLayer(layer, [cd(3)]);
    await a.close();
    const b = LmdbBoundaryStore.open(dir);
    expect(b.list()).toEqual([cd(3)]);
    await b.close();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Level, type RegionRecord } from '../domain/region.js';
import { open } from 'lmdb';
import { LmdbBoundaryStore } from './lmdb-boundary-store.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function path(): string {
  const d = mkdtempSync(join(tmpdir(), 'civic-bstore-'));
  dirs.push(d);
  return d;
}

const square = (x: number) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [x, 0],
      [x + 1, 0],
      [x + 1, 1],
      [x, 1],
      [x, 0],
    ],
  ],
});
const cd = (n: number, x = n, from = '2025-01-03', state = 'nc'): RegionRecord => ({
  slug: `region:${state}-cd-${n}`,
  name: `District ${n}`,
  level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
  fips: `37${n}`,
  ocdId: '',
  state,
  geometry: square(x),
  validity: { from },
});
const layer = { level: Level.LEVEL_CONGRESSIONAL_DISTRICT, state: 'nc', validFrom: '2025-01-03', scale: 0 };
const replace = (store: LmdbBoundaryStore, regions: RegionRecord[], key = layer) =>
  store.replaceLayers([{ key, regions }])[0];
const none = { created: [], updated: [], deleted: [] };

describe('LmdbBoundaryStore', () => {
  it('creates, then on an identical re-import changes nothing and keeps the generation', async () => {
    const store = LmdbBoundaryStore.open(path());
    const first = replace(store, [cd(1), cd(2)]);
    expect(first).toEqual({
      key: layer,
      created: ['region:nc-cd-1@2025-01-03', 'region:nc-cd-2@2025-01-03'],
      updated: [],
      deleted: [],
      unchanged: 0,
      before: 0,
    });
    const generation = store.generation();
    expect(replace(store, [cd(1), cd(2)])).toEqual({ key: layer, ...none, unchanged: 2, before: 2 });
    expect(store.generation()).toBe(generation);
    await store.close();
  });

  it('replaces a layer: changed versions update, missing ones are deleted', async () => {
    const store = LmdbBoundaryStore.open(path());
    replace(store, [cd(1), cd(2)]);
    const change = replace(store, [cd(1, 5)]);
    expect(change).toEqual({
      key: layer,
      created: [],
      updated: ['region:nc-cd-1@2025-01-03'],
      deleted: ['region:nc-cd-2@2025-01-03'],
      unchanged: 0,
      before: 2,
    });
    expect(store.list().map((r) => r.slug)).toEqual(['region:nc-cd-1']);
    await store.close();
  });

  it('keeps two dated maps of the same districts side by side', async () => {
    const store = LmdbBoundaryStore.open(path());
    replace(store, [cd(1, 0, '2023-01-03')], { ...layer, validFrom: '2023-01-03' });
    replace(store, [cd(1, 3)]);
    expect(
      store
        .list()
        .map((r) => r.validity?.from)
        .sort(),
    ).toEqual(['2023-01-03', '2025-01-03']);
    await store.close();
  });

  it("keeps each state's layer apart: replacing one state never touches another", async () => {
    const store = LmdbBoundaryStore.open(path());
    replace(store, [cd(1, 0, '2025-01-03', 'nh'), cd(2, 1, '2025-01-03', 'nh')], { ...layer, state: 'nh' });
    const hi = replace(store, [cd(1, 5, '2025-01-03', 'hi')], { ...layer, state: 'hi' });
    expect(hi?.deleted).toEqual([]);
    expect(store.layers().map((l) => [l.key.state, l.regions.length])).toEqual([
      ['hi', 1],
      ['nh', 2],
    ]);
    await store.close();
  });

  it('writes nothing when the check refuses the changes it is shown', async () => {
    const store = LmdbBoundaryStore.open(path());
    replace(store, [cd(1), cd(2)]);
    const generation = store.generation();
    let seen: unknown;
    expect(() =>
      store.replaceLayers([{ key: layer, regions: [cd(3)] }], (changes) => {
        seen = changes;
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(seen).toEqual([
      {
        key: layer,
        created: ['region:nc-cd-3@2025-01-03'],
        updated: [],
        deleted: ['region:nc-cd-1@2025-01-03', 'region:nc-cd-2@2025-01-03'],
        unchanged: 0,
        before: 2,
      },
    ]);
    expect(store.list().map((r) => r.slug)).toEqual(['region:nc-cd-1', 'region:nc-cd-2']);
    expect(store.generation()).toBe(generation);
    await store.close();
  });

  it('keeps the source of a version the re-import leaves unchanged, and takes the new one with a change', async () => {
    const store = LmdbBoundaryStore.open(path());
    const from = (name: string, importedAt: string, x = 1) => ({ ...cd(1, x), source: { name, importedAt } });
    replace(store, [from('a.shp', '2026-01-01T00:00:00.000Z')]);
    expect(replace(store, [from('b.shp', '2026-02-01T00:00:00.000Z')])).toMatchObject(none);
    expect(store.list()[0]?.source).toEqual({ name: 'a.shp', importedAt: '2026-01-01T00:00:00.000Z' });
    replace(store, [from('c.shp', '2026-03-01T00:00:00.000Z', 4)]);
    expect(store.list()[0]?.source).toEqual({ name: 'c.shp', importedAt: '2026-03-01T00:00:00.000Z' });
    await store.close();
  });

  it('another handle on the same directory (the CLI) sees the change and the new generation', async () => {
    const dir = path();
    const server = LmdbBoundaryStore.open(dir);
    const before = server.generation();
    const cli = LmdbBoundaryStore.open(dir);
    replace(cli, [cd(7)]);
    await cli.close();
    expect(server.generation()).toBe(before + 1);
    expect(server.list().map((r) => r.slug)).toEqual(['region:nc-cd-7']);
    await server.close();
  });

  it('survives a reopen', async () => {
    const dir = path();
    const a = LmdbBoundaryStore.open(dir);
    replace(a, [cd(3)]);
    await a.close();
    const b = LmdbBoundaryStore.open(dir);
    expect(b.list()).toEqual([cd(3)]);
    await b.close();
  });

  it('splits a layer stored by an older version with no state into one layer per state, keeping every version', async () => {
    const dir = path();
    // What an import of a two-state file wrote before layers were per state.
    const raw = open({ path: dir });
    const versions = raw.openDB('versions', { encoding: 'json' });
    const layers = raw.openDB('layers', { encoding: 'json' });
    const id = `${Level.LEVEL_CONGRESSIONAL_DISTRICT}||2023-01-03`;
    const old = [cd(1, 0, '2023-01-03', 'nh'), cd(2, 1, '2023-01-03', 'nh'), cd(1, 5, '2023-01-03', 'hi')];
    for (const r of old) await versions.put(`${id}#${r.slug}@2023-01-03`, { fingerprint: 'x', region: r });
    await layers.put(id, old.map((r) => `${r.slug}@2023-01-03`).sort());
    await raw.close();
    const store = LmdbBoundaryStore.open(dir);
    expect(store.layers().map((l) => [l.key, l.regions.map((r) => r.slug)])).toEqual([
      [
        { level: Level.LEVEL_CONGRESSIONAL_DISTRICT, state: 'hi', validFrom: '2023-01-03', scale: 0 },
        ['region:hi-cd-1'],
      ],
      [
        { level: Level.LEVEL_CONGRESSIONAL_DISTRICT, state: 'nh', validFrom: '2023-01-03', scale: 0 },
        ['region:nh-cd-1', 'region:nh-cd-2'],
      ],
    ]);
    await store.close();
  });

  it('keeps a map and a generalised one of the same day side by side, whichever comes last', async () => {
    const store = LmdbBoundaryStore.open(path());
    const cb = (r: RegionRecord) => ({ ...r, source: { name: 'cb_2023_us_cd118_20m.zip', scale: 20_000_000 } });
    const tiger = (r: RegionRecord) => ({ ...r, source: { name: 'tl_2022_37_cd118.shp', scale: 0 } });
    replace(store, [tiger(cd(1)), tiger(cd(2))]);
    const generalised = replace(store, [cb(cd(1, 7))], { ...layer, scale: 20_000_000 });
    expect(generalised).toMatchObject({ created: ['region:nc-cd-1@2025-01-03'], deleted: [], before: 0 });
    // The full-resolution map again, the generalised one untouched.
    expect(replace(store, [tiger(cd(1)), tiger(cd(2))])).toMatchObject({ ...none, unchanged: 2 });
    expect(store.layers().map((l) => [l.key.scale, l.regions.map((r) => r.source?.name)])).toEqual([
      [0, ['tl_2022_37_cd118.shp', 'tl_2022_37_cd118.shp']],
      [20_000_000, ['cb_2023_us_cd118_20m.zip']],
    ]);
    await store.close();
  });

  it("moves a generalised map an older version stored under its day's one layer to its scale's own", async () => {
    const dir = path();
    // What an import of a Census 1:20M file wrote before layers had a scale (its versions unstamped, as the oldest were).
    const raw = open({ path: dir });
    const versions = raw.openDB('versions', { encoding: 'json' });
    const layers = raw.openDB('layers', { encoding: 'json' });
    const id = `${Level.LEVEL_CONGRESSIONAL_DISTRICT}|nc|2023-01-03`;
    const old = [1, 2].map((n) => ({ ...cd(n, n, '2023-01-03'), source: { name: 'cb_2023_us_cd118_20m.zip' } }));
    for (const r of old) await versions.put(`${id}#${r.slug}@2023-01-03`, { fingerprint: 'x', region: r });
    await layers.put(id, old.map((r) => `${r.slug}@2023-01-03`).sort());
    await raw.close();
    const store = LmdbBoundaryStore.open(dir);
    const key = { level: Level.LEVEL_CONGRESSIONAL_DISTRICT, state: 'nc', validFrom: '2023-01-03', scale: 20_000_000 };
    expect(store.layers()).toEqual([{ key, regions: old }]);
    // A full-resolution map of the same day now joins it instead of replacing it.
    replace(store, [cd(1, 1, '2023-01-03')], { ...key, scale: 0 });
    expect(store.layers().map((l) => [l.key.scale, l.regions.length])).toEqual([
      [0, 1],
      [20_000_000, 2],
    ]);
    await store.close();
    // Opened again: nothing left to move.
    const again = LmdbBoundaryStore.open(dir);
    expect(again.layers().map((l) => l.key.scale)).toEqual([0, 20_000_000]);
    await again.close();
  });
});

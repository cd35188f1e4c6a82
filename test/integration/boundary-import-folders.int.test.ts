import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBoundaries, ImportRefusedError, LmdbBoundaryStore, type ImportProgress } from '@civicgraph/geo';
import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { SHARED_DATA } from '../harness/stack.js';

// One command for a folder or a list of files: every file one map, in one transaction.
const TIGER = join(SHARED_DATA, 'boundaries/congressional/tiger2022-cd118');
const CD119 = join(SHARED_DATA, 'boundaries/congressional/us-cd119-20m.geojson');
const CD = Level.LEVEL_CONGRESSIONAL_DISTRICT;
const V = { from: '2023-01-03', electionsFrom: '2022-01-01' };
const shp = (fips: string) => join(TIGER, `tl_2022_${fips}_cd118.shp`);

let dir: string;
let store: LmdbBoundaryStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'civic-folders-'));
  store = LmdbBoundaryStore.open(join(dir, 'geo'));
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A folder holding links to some states' shapefiles (each .shp with its sidecars) and nothing else of use. */
function folderOf(name: string, fips: string[]): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  for (const f of fips)
    for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg'])
      symlinkSync(join(TIGER, `tl_2022_${f}_cd118.${ext}`), join(folder, `tl_2022_${f}_cd118.${ext}`));
  return folder;
}

describe('importing several boundary files as one map', () => {
  it('imports a list of files, one layer per state, reporting each file and its progress', async () => {
    const seen: ImportProgress[] = [];
    const summary = await importBoundaries(store, { path: [shp('08'), shp('44')], level: CD, validity: V }, (p) =>
      seen.push(p),
    );
    expect(summary.files.map((f) => [f.file, f.format, f.scale])).toEqual([
      [shp('08'), 'shapefile', 0],
      [shp('44'), 'shapefile', 0],
    ]);
    expect(summary.layers.map((l) => [l.key.state, l.created.length])).toEqual([
      ['co', 8],
      ['ri', 2],
    ]);
    expect(seen.map((p) => `${p.phase} ${p.file}/${p.files}`)).toEqual([
      'reading 1/2',
      'reading 2/2',
      'storing 2/2',
      'done 2/2',
    ]);
  });

  it("reads a folder's boundary files by name, its sidecars beside them, and re-importing changes nothing", async () => {
    const folder = folderOf('some-states', ['08', '10', '44']);
    const generation = store.generation();
    const summary = await importBoundaries(store, { path: folder, level: CD, validity: V });
    expect(summary.files.map((f) => f.file)).toEqual(
      ['08', '10', '44'].map((f) => join(folder, `tl_2022_${f}_cd118.shp`)),
    );
    // Colorado and Rhode Island were stored by the list import: the same districts from the same outlines.
    expect(summary.change).toMatchObject({
      created: ['region:de-cd-at-large@2023-01-03'],
      updated: [],
      deleted: [],
      unchanged: 10,
    });
    expect(store.generation()).toBe(generation + 1);
    const again = await importBoundaries(store, { path: folder, level: CD, validity: V });
    expect(again.change).toMatchObject({ created: [], updated: [], deleted: [], unchanged: 11 });
    expect(store.generation()).toBe(generation + 1);
  });

  it('stamps each version with its file and, for a cartographic file, the scale its name states', async () => {
    const summary = await importBoundaries(store, {
      path: CD119,
      level: CD,
      validity: { from: '2025-01-03', electionsFrom: '2024-01-01' },
    });
    expect(summary.files[0]!.scale).toBe(20_000_000);
    const stored = store.list().find((r) => r.slug === 'region:co-cd-1' && r.validity?.from === '2025-01-03');
    expect(stored?.source).toMatchObject({ name: 'us-cd119-20m.geojson', scale: 20_000_000 });
    expect(
      store.list().find((r) => r.slug === 'region:co-cd-1' && r.validity?.from === '2023-01-03')?.source,
    ).toMatchObject({ name: 'tl_2022_08_cd118.shp', scale: 0 });
  });

  it('refuses, changing nothing, two files that both hold a district', async () => {
    const generation = store.generation();
    const err = await importBoundaries(store, {
      path: [shp('08'), CD119],
      level: CD,
      validity: { from: '2027-01-03' },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportRefusedError);
    expect(err).toMatchObject({ field: 'file' });
    expect((err as Error).message).toMatch(
      /region:co-cd-\d comes from both tl_2022_08_cd118\.shp and us-cd119-20m\.geojson/,
    );
    expect(store.generation()).toBe(generation);
  });

  it('refuses a folder with no boundary file, a missing file and a bad scale, naming the field', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    await expect(importBoundaries(store, { path: empty, level: CD, validity: V })).rejects.toMatchObject({
      field: 'file',
      message: expect.stringContaining('no boundary file'),
    });
    await expect(importBoundaries(store, { path: [], level: CD, validity: V })).rejects.toMatchObject({
      field: 'file',
    });
    await expect(
      importBoundaries(store, {
        path: [shp('08'), join(dir, 'missing.shp')],
        level: CD,
        validity: { from: '2029-01-03' },
      }),
    ).rejects.toMatchObject({ field: 'file' });
    await expect(
      importBoundaries(store, { path: shp('08'), level: CD, validity: V, scale: 0.5 }),
    ).rejects.toMatchObject({ field: 'scale' });
    expect(store.list().some((r) => r.validity?.from === '2029-01-03')).toBe(false);
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBoundaries, LmdbBoundaryStore } from '@civicgraph/geo';
import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { get, SHARED_DATA, startStack, type Stack } from '../harness/stack.js';
import { scaled } from '@civicgraph/kit/testing';

const CD118 = join(SHARED_DATA, 'boundaries/congressional/cb_2023_us_cd118_20m.zip');
const CD119 = join(SHARED_DATA, 'boundaries/congressional/us-cd119-20m.geojson');
// Greensboro, NC: NC-6 under the 118th Congress map, NC-5 under the 119th (North Carolina
// redrew in 2023); the answer is the same within 2 km in each map.
const POINT = { lat: 36.0726, lng: -79.792 };
// The 118th map: elected in 2022, served 2023-01-03 … 2025-01-03. The 119th: used by the
// 2024 elections, serving from 2025-01-03.
const V118 = { from: '2023-01-03', to: '2025-01-03', electionsFrom: '2022-01-01', electionsTo: '2024-01-01' };
const V119 = { from: '2025-01-03', electionsFrom: '2024-01-01' };

let stack: Stack;
let key: string;
let store: LmdbBoundaryStore;
const cdOn = async (date: string) => {
  const res = await get(`${stack.url}/v1/districts_by_point?lat=${POINT.lat}&lng=${POINT.lng}&date=${date}`, key);
  return res.body.data
    .filter((r: { level: string }) => r.level === 'congressional-district')
    .map((r: { slug: string; roles: string[]; valid_from: string }) => ({
      slug: r.slug,
      roles: r.roles,
      valid_from: r.valid_from,
    }));
};

beforeAll(async () => {
  stack = await startStack();
  key = await stack.key();
  // A second handle on the service's store, exactly as `civicgraph import` opens it.
  store = LmdbBoundaryStore.open(join(stack.dataDir, 'geo'));
}, scaled(60_000));
afterAll(async () => {
  await store.close();
  await stack.stop();
});

describe('importing dated congressional maps into a running service', () => {
  it(
    'imports the 118th (zipped Census shapefile) and 119th (GeoJSON) maps, and the service picks them up',
    async () => {
      const a = await importBoundaries(store, {
        path: CD118,
        level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
        validity: V118,
      });
      expect(a.files.map((f) => f.format)).toEqual(['shapefile']);
      expect(a.change.created.length).toBeGreaterThan(430);
      const b = await importBoundaries(store, {
        path: CD119,
        level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
        validity: V119,
      });
      expect(b.files.map((f) => [f.format, f.scale])).toEqual([['geojson', 20_000_000]]);
      await expect.poll(() => cdOn('2025-06-01'), { timeout: scaled(60_000) }).toHaveLength(1);
    },
    scaled(120_000),
  );

  it('answers with the district of the map in force on each date', async () => {
    const [in2023] = await cdOn('2023-06-01');
    const [in2025] = await cdOn('2025-06-01');
    expect(in2023).toMatchObject({ roles: ['serving', 'electing'], valid_from: '2023-01-03' });
    expect(in2025).toMatchObject({ roles: ['serving', 'electing'], valid_from: '2025-01-03' });
    expect(in2023!.slug).toBe('region:nc-cd-6');
    expect(in2025!.slug).toBe('region:nc-cd-5');
  });

  it('between the 2024 elections and 2025-01-03 returns the serving and the electing district, each marked', async () => {
    const both = await cdOn('2024-11-05');
    expect(both).toHaveLength(2);
    expect(both).toEqual([
      { slug: 'region:nc-cd-5', roles: ['electing'], valid_from: '2025-01-03' },
      { slug: 'region:nc-cd-6', roles: ['serving'], valid_from: '2023-01-03' },
    ]);
  });

  it('re-importing the same file changes nothing', async () => {
    const generation = store.generation();
    const again = await importBoundaries(store, {
      path: CD119,
      level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
      validity: V119,
    });
    expect(again.change).toMatchObject({ created: [], updated: [], deleted: [] });
    expect(again.change.unchanged).toBeGreaterThan(430);
    expect(store.generation()).toBe(generation);
  });

  it('a file that is not what it claims is refused and the previous boundaries keep serving', async () => {
    const bogus = join(stack.dataDir, 'not-really.geojson');
    writeFileSync(bogus, 'this is not GeoJSON');
    await expect(
      importBoundaries(store, { path: bogus, level: Level.LEVEL_CONGRESSIONAL_DISTRICT, validity: V119 }),
    ).rejects.toMatchObject({ field: 'file' });
    expect(await cdOn('2025-06-01')).toHaveLength(1);
  });

  it('refuses a bad validity or state, naming the field', async () => {
    await expect(
      importBoundaries(store, {
        path: CD119,
        level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
        validity: { from: '2025-01-03', to: '2024-01-01' },
      }),
    ).rejects.toMatchObject({ field: 'valid_to' });
    await expect(
      importBoundaries(store, { path: CD119, level: Level.LEVEL_CONGRESSIONAL_DISTRICT, state: 'XX' }),
    ).rejects.toMatchObject({ field: 'state' });
  });
});

describe('importing other shapes of boundary file', () => {
  it(
    'reprojects the Maricopa VIP precincts (nested zip, Arizona State Plane feet) keyed by ELECTPCT',
    async () => {
      const vip = join(SHARED_DATA, 'vip/sample_feed_v6.zip');
      const summary = await importBoundaries(store, {
        path: vip,
        level: Level.LEVEL_PRECINCT,
        state: 'AZ',
        codeField: 'ELECTPCT',
      });
      expect(summary.files).toMatchObject([{ format: 'shapefile', crs: { reprojected: true }, scale: 0 }]);
      // 1,077 shapes; split precincts share an ELECTPCT and merge: 743 distinct codes.
      expect(summary.features).toBe(1077);
      expect(summary.rejected).toEqual([]);
      expect(summary.change.created.length).toBe(743);
      // Phoenix City Hall lies in a Maricopa precinct once the service reloads.
      const at = `${stack.url}/v1/districts_by_point?lat=33.4484&lng=-112.0740`;
      await expect
        .poll(async () => (await get(at, key)).body.data.map((r: { level: string }) => r.level), {
          timeout: scaled(60_000),
        })
        .toContain('precinct');
    },
    scaled(120_000),
  );

  it('reads us-atlas TopoJSON, taking GEOIDs from feature ids', async () => {
    const { createRequire } = await import('node:module');
    const topo = createRequire(import.meta.url).resolve('us-atlas/states-10m.json');
    const summary = await importBoundaries(store, {
      path: topo,
      level: Level.LEVEL_STATE,
      validity: { from: '1990-01-01', to: '1990-01-02' },
    });
    expect(summary.files.map((f) => f.format)).toEqual(['topojson']);
    expect(summary.change.created).toContain('region:co@1990-01-01');
  });
});

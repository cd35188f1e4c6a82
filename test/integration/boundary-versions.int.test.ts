import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBoundaries, ImportRefusedError, LmdbBoundaryStore, readBoundaryFile, type BoundaryImport } from '@civicgraph/geo';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { get, graphql, SHARED_DATA, startStack, type Stack } from '../harness/stack.js';
import { loadSources, MAP_SOURCES } from '../harness/sources.js';

// The service as `civicgraph up` configures it (the 119th Congress and Colorado 2021 maps,
// dated), then full-resolution 118th Congress maps imported one state at a time.
const tiger = (fips: string) => join(SHARED_DATA, `boundaries/congressional/tiger2022-cd118/tl_2022_${fips}_cd118.shp`);
const CD = Level.LEVEL_CONGRESSIONAL_DISTRICT;
const V118 = { from: '2023-01-03', electionsFrom: '2022-01-01' };
const DENVER = { lat: 39.7392, lng: -104.9903 };
const POINTS = {
  denver: DENVER,
  boulder: { lat: 40.0181, lng: -105.2795 },
  grandJunction: { lat: 39.0639, lng: -108.5506 },
  providence: { lat: 41.8308, lng: -71.415 },
  newport: { lat: 41.4901, lng: -71.3128 },
};
const DATES = ['2021-06-01', '2022-06-01', '2023-01-03', '2023-06-01', '2024-01-01', '2024-11-05', '2025-01-03', '2025-06-01', '2026-11-03'];

interface Served { slug: string; roles: string[]; valid_from: string | null; valid_to: string | null }

let stack: Stack;
let key: string;
let store: LmdbBoundaryStore;
let scratch: string;

const districts = async (p: { lat: number; lng: number }, date: string, level = 'congressional-district'): Promise<Served[]> => {
  const res = await get(`${stack.url}/v1/districts_by_point?lat=${p.lat}&lng=${p.lng}&date=${date}`, key);
  expect(res.status).toBe(200);
  return res.body.data.filter((r: { level: string }) => r.level === level).map(({ slug, roles, valid_from, valid_to }: Served) => ({ slug, roles, valid_from, valid_to }));
};
const everywhere = async () => Promise.all(Object.values(POINTS).flatMap((p) => DATES.map((d) => districts(p, d))));
const imported = (req: Omit<BoundaryImport, 'level'>) => importBoundaries(store, { level: CD, ...req });

beforeAll(async () => {
  stack = await startStack();
  await loadSources(stack, MAP_SOURCES);
  key = await stack.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 100_000 });
  store = LmdbBoundaryStore.open(join(stack.dataDir, 'geo'));
  scratch = mkdtempSync(join(tmpdir(), 'civic-bversions-'));
}, 180_000);
afterAll(async () => {
  await store.close();
  await stack.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('full-resolution maps of two states, imported one after the other without --state', () => {
  it('gives each state its own layer: the second import deletes nothing of the first', async () => {
    const co = await imported({ path: tiger('08'), validity: V118 });
    expect(co.layers.map((l) => [l.key.state, l.created.length])).toEqual([['co', 8]]);
    const ri = await imported({ path: tiger('44'), validity: V118 });
    expect(ri.layers.map((l) => [l.key.state, l.created.length, l.deleted.length])).toEqual([['ri', 2, 0]]);
    expect(store.layers().filter((l) => l.key.validFrom === V118.from).map((l) => [l.key.state, l.regions.length])).toEqual([['co', 8], ['ri', 2]]);
    await expect.poll(() => districts(DENVER, '2023-06-01'), { timeout: 120_000 }).toHaveLength(1);
    expect(await districts(POINTS.providence, '2023-06-01')).toHaveLength(1);
  }, 180_000);

  it('serves each district once per role on every date, wherever the maps meet', async () => {
    for (const [i, answer] of (await everywhere()).entries()) {
      const date = DATES[i % DATES.length]!;
      const serving = answer.filter((r) => r.roles.includes('serving'));
      const electing = answer.filter((r) => r.roles.includes('electing'));
      // No congressional map elects before 2022 or serves before 2023-01-03 in this data.
      expect(serving, `serving on ${date}`).toHaveLength(date < '2023-01-03' ? 0 : 1);
      expect(electing, `electing on ${date}`).toHaveLength(date < '2022-01-01' ? 0 : 1);
    }
  });

  it("the imported map serves until the registry's 119th map supersedes it, which elects from 2024", async () => {
    expect(await districts(DENVER, '2023-06-01')).toEqual([{ slug: 'region:co-cd-1', roles: ['serving', 'electing'], valid_from: '2023-01-03', valid_to: '2025-01-03' }]);
    expect(await districts(DENVER, '2024-11-05')).toEqual([
      { slug: 'region:co-cd-1', roles: ['serving'], valid_from: '2023-01-03', valid_to: '2025-01-03' },
      { slug: 'region:co-cd-1', roles: ['electing'], valid_from: '2025-01-03', valid_to: null },
    ]);
    expect(await districts(POINTS.newport, '2025-06-01')).toEqual([{ slug: 'region:ri-cd-1', roles: ['serving', 'electing'], valid_from: '2025-01-03', valid_to: null }]);
  });

  it('GraphQL marks the same two versions, each with its own outline, and the ballot uses the electing one once', async () => {
    const query = '{ districtsAtPoint(lat: 39.7392, lng: -104.9903, date: "2024-11-05") { slug level roles validFrom boundary } }';
    const res = await graphql(stack.url, key, query);
    const cds = res.body.data.districtsAtPoint.filter((r: { level: string }) => r.level === 'CONGRESSIONAL_DISTRICT');
    expect(cds.map((r: { slug: string; roles: string[]; validFrom: string }) => [r.slug, r.roles, r.validFrom])).toEqual([
      ['region:co-cd-1', ['SERVING'], '2023-01-03'],
      ['region:co-cd-1', ['ELECTING'], '2025-01-03'],
    ]);
    const vertices = (g: { coordinates: unknown }) => JSON.stringify(g.coordinates).split('],[').length;
    // Full-resolution TIGER against the 1:20M cartographic outline.
    expect(vertices(cds[0].boundary)).toBeGreaterThan(20 * vertices(cds[1].boundary));
    const ballot = await get(`${stack.url}/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=2024-11-05`, key);
    expect(ballot.body.regions.filter((r: { slug: string }) => r.slug === 'region:co-cd-1')).toHaveLength(1);
  });

  it('lists a region\'s versions with their intervals and sources', async () => {
    const res = await get(`${stack.url}/v1/regions/region:co-cd-1?date=2024-06-01`, key);
    expect(res.status).toBe(200);
    expect(res.body.versions).toEqual([
      { valid_from: '2023-01-03', valid_to: '2025-01-03', elections_from: '2022-01-01', elections_to: '2024-01-01', source: 'tl_2022_08_cd118.shp', imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { valid_from: '2025-01-03', valid_to: null, elections_from: '2024-01-01', elections_to: null, source: 'cb_2024_us_cd119_20m', imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    ]);
  });

  it('a map imported with the registry map\'s own dates takes its place for that state only', async () => {
    await imported({ path: tiger('44'), validity: { from: '2025-01-03', electionsFrom: '2024-01-01' } });
    await expect.poll(async () => (await get(`${stack.url}/v1/regions/region:ri-cd-1`, key)).body.versions.map((v: { source: string }) => v.source), { timeout: 120_000 })
      .toEqual(['tl_2022_44_cd118.shp', 'tl_2022_44_cd118.shp']);
    expect((await get(`${stack.url}/v1/regions/region:co-cd-1`, key)).body.versions.map((v: { source: string }) => v.source)).toEqual(['tl_2022_08_cd118.shp', 'cb_2024_us_cd119_20m']);
    expect(await districts(POINTS.newport, '2025-06-01')).toHaveLength(1);
  }, 180_000);
});

describe('imports that would take a map away are refused and change nothing', () => {
  const file = (name: string, features: unknown[]) => {
    const path = join(scratch, name);
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features }));
    return path;
  };
  const nan = { type: 'Feature', properties: { STATEFP: '08', CD118FP: '01' }, geometry: { type: 'Polygon', coordinates: [[[NaN, 39], [-104, 39], [-104, 40], [NaN, 39]]] } };
  let before: Served[][];
  let generation: number;

  beforeAll(async () => {
    before = await everywhere();
    generation = store.generation();
  });

  const refusal = async (req: Omit<BoundaryImport, 'level'>) => {
    const err = await imported(req).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ImportRefusedError);
    expect(store.generation()).toBe(generation);
    return err as ImportRefusedError;
  };

  it('an empty file', async () => {
    const err = await refusal({ path: file('empty.geojson', []), validity: V118 });
    expect(err).toMatchObject({ field: 'file', message: expect.stringMatching(/no usable feature \(0 feature\(s\) read\)\. Nothing was changed\./) });
  });

  it('a file whose every feature is rejected (NaN coordinates)', async () => {
    const err = await refusal({ path: file('nan.geojson', [nan]), validity: V118 });
    expect(err.field).toBe('file');
    expect(err.summary.rejectedByCode).toEqual({ malformed_geometry: 1 });
  });

  it('a file that would delete districts of a stored map, unless --replace says so', async () => {
    const { collection } = await readBoundaryFile(tiger('08'));
    const sevenOfEight = file('co-7.geojson', collection.features.filter((f) => f.properties['CD118FP'] !== '08'));
    const err = await refusal({ path: sevenOfEight, validity: V118 });
    expect(err.field).toBe('replace');
    expect(err.message).toBe('The import would delete 1 of the 8 stored versions of the congressional-district map of CO from 2023-01-03 (region:co-cd-8@2023-01-03); deletions need --replace. Nothing was changed.');
    expect(err.summary.change.deleted).toEqual(['region:co-cd-8@2023-01-03']);
    expect((await refusal({ path: sevenOfEight, validity: V118, maxDeleteFraction: 0.1 })).field).toBe('replace');
    expect(await everywhere()).toEqual(before);
    // Allowed when asked for; the full file brings the district back.
    expect((await imported({ path: sevenOfEight, validity: V118, maxDeleteFraction: 0.125 })).change.deleted).toEqual(['region:co-cd-8@2023-01-03']);
    expect((await imported({ path: tiger('08'), validity: V118, replace: true })).change.created).toEqual(['region:co-cd-8@2023-01-03']);
    generation = store.generation();
  }, 120_000);

  it('with strict, a file with any rejected feature; without, its good features import', async () => {
    const { collection } = await readBoundaryFile(tiger('08'));
    const mixed = file('co-mixed.geojson', [...collection.features, nan]);
    const err = await refusal({ path: mixed, validity: V118, strict: true });
    expect(err).toMatchObject({ field: 'strict', message: '1 feature(s) rejected (1 malformed_geometry); strict mode refuses the import. Nothing was changed.' });
    const lenient = await imported({ path: mixed, validity: V118 });
    expect(lenient).toMatchObject({ change: { created: [], updated: [], deleted: [], unchanged: 8 }, rejected: [{ index: 8, code: 'malformed_geometry' }] });
    // The service has reloaded the restored map by now or will shortly.
    await expect.poll(everywhere, { timeout: 120_000 }).toEqual(before);
  }, 120_000);
});

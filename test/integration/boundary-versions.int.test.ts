import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importBoundaries,
  ImportRefusedError,
  LmdbBoundaryStore,
  readBoundaryFile,
  type BoundaryImport,
} from '@civicgraph/geo';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { get, graphql, SHARED_DATA, startStack, type Stack } from '../harness/stack.js';
import { preparedMaps } from '../harness/prepared-maps.js';
import { MAP_SOURCES_WITHOUT_TIGER } from '../harness/sources.js';
import { scaled } from '@civicgraph/kit/testing';

// The service with the registry's cartographic 119th Congress map (1:20M) and Colorado's
// 2021 maps, dated — the registry's full-resolution TIGER maps left out — then
// full-resolution 118th Congress maps imported one state at a time.
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
// NC-6 under the 118th Congress map, NC-5 under the 119th (North Carolina redrew in 2023).
const GREENSBORO = { lat: 36.0726, lng: -79.792 };
const REDRAWN = { ...V118, to: '2025-01-03', electionsTo: '2024-01-01' };
const DATES = [
  '2021-06-01',
  '2022-06-01',
  '2023-01-03',
  '2023-06-01',
  '2024-01-01',
  '2024-11-05',
  '2025-01-03',
  '2025-06-01',
  '2026-11-03',
];

interface Served {
  slug: string;
  roles: string[];
  valid_from: string | null;
  valid_to: string | null;
  precision?: string;
}

let stack: Stack;
let key: string;
let store: LmdbBoundaryStore;
let scratch: string;

const districts = async (
  p: { lat: number; lng: number },
  date: string,
  level = 'congressional-district',
): Promise<Served[]> => {
  const res = await get(`${stack.url}/v1/districts_by_point?lat=${p.lat}&lng=${p.lng}&date=${date}`, key);
  expect(res.status).toBe(200);
  return res.body.data
    .filter((r: { level: string }) => r.level === level)
    .map(({ slug, roles, valid_from, valid_to }: Served) => ({ slug, roles, valid_from, valid_to }));
};
const everywhere = async () => Promise.all(Object.values(POINTS).flatMap((p) => DATES.map((d) => districts(p, d))));
const imported = (req: Omit<BoundaryImport, 'level'>) => importBoundaries(store, { level: CD, ...req });

beforeAll(async () => {
  stack = await startStack({ seed: await preparedMaps(MAP_SOURCES_WITHOUT_TIGER) });
  key = await stack.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 100_000 });
  store = LmdbBoundaryStore.open(join(stack.dataDir, 'geo'));
  scratch = mkdtempSync(join(tmpdir(), 'civic-bversions-'));
}, scaled(180_000));
afterAll(async () => {
  // Safe after a setup that never finished: only what it made is undone.
  await store?.close();
  await stack?.stop();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('full-resolution maps of two states, imported one after the other without --state', () => {
  it(
    'gives each state its own layer: the second import deletes nothing of the first',
    async () => {
      const co = await imported({ path: tiger('08'), validity: V118 });
      expect(co.layers.map((l) => [l.key.state, l.created.length])).toEqual([['co', 8]]);
      const ri = await imported({ path: tiger('44'), validity: V118 });
      expect(ri.layers.map((l) => [l.key.state, l.created.length, l.deleted.length])).toEqual([['ri', 2, 0]]);
      expect(
        store
          .layers()
          .filter((l) => l.key.validFrom === V118.from)
          .map((l) => [l.key.state, l.regions.length]),
      ).toEqual([
        ['co', 8],
        ['ri', 2],
      ]);
      await expect.poll(() => districts(DENVER, '2023-06-01'), { timeout: scaled(120_000) }).toHaveLength(1);
      expect(await districts(POINTS.providence, '2023-06-01')).toHaveLength(1);
    },
    scaled(180_000),
  );

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

  it("a full-resolution map with no end keeps serving past the registry's 1:20M 119th map, which serves only where nothing better is loaded", async () => {
    const open = { slug: 'region:co-cd-1', roles: ['serving', 'electing'], valid_from: '2023-01-03', valid_to: null };
    for (const date of ['2023-06-01', '2024-11-05', '2026-11-03'])
      expect(await districts(DENVER, date), date).toEqual([open]);
    expect(await districts(POINTS.newport, '2025-06-01')).toEqual([
      { slug: 'region:ri-cd-1', roles: ['serving', 'electing'], valid_from: '2023-01-03', valid_to: null },
    ]);
    const res = await get(
      `${stack.url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}&date=2026-11-03`,
      key,
    );
    const cd = res.body.data.find((r: { level: string }) => r.level === 'congressional-district');
    expect(cd).toMatchObject({ source: 'tl_2022_08_cd118.shp', precision: 'full', scale_denominator: null });
    const state = res.body.data.find((r: { level: string }) => r.level === 'state');
    expect(state).toMatchObject({ precision: 'generalized', scale_denominator: 10_000_000 });
  });

  it(
    'a full-resolution map whose end is declared hands over to the 1:20M map: between the 2024 elections and 2025-01-03 both, each marked',
    async () => {
      await imported({ path: tiger('37'), validity: REDRAWN });
      await expect
        .poll(() => districts(GREENSBORO, '2023-06-01'), { timeout: scaled(120_000) })
        .toEqual([
          { slug: 'region:nc-cd-6', roles: ['serving', 'electing'], valid_from: '2023-01-03', valid_to: '2025-01-03' },
        ]);
      expect(await districts(GREENSBORO, '2024-11-05')).toEqual([
        { slug: 'region:nc-cd-5', roles: ['electing'], valid_from: '2025-01-03', valid_to: null },
        { slug: 'region:nc-cd-6', roles: ['serving'], valid_from: '2023-01-03', valid_to: '2025-01-03' },
      ]);
      expect(await districts(GREENSBORO, '2025-06-01')).toEqual([
        { slug: 'region:nc-cd-5', roles: ['serving', 'electing'], valid_from: '2025-01-03', valid_to: null },
      ]);
    },
    scaled(180_000),
  );

  it('GraphQL marks the same two versions, each with its own outline and precision, and the ballot uses the electing one once', async () => {
    const { lat, lng } = GREENSBORO;
    const query = `{ districtsAtPoint(lat: ${lat}, lng: ${lng}, date: "2024-11-05") { slug level roles validFrom source precision scaleDenominator boundary } }`;
    const res = await graphql(stack.url, key, query);
    const cds = res.body.data.districtsAtPoint.filter((r: { level: string }) => r.level === 'CONGRESSIONAL_DISTRICT');
    expect(
      cds.map(
        (r: {
          slug: string;
          roles: string[];
          validFrom: string;
          precision: string;
          scaleDenominator: number | null;
        }) => [r.slug, r.roles, r.validFrom, r.precision, r.scaleDenominator],
      ),
    ).toEqual([
      ['region:nc-cd-5', ['ELECTING'], '2025-01-03', 'GENERALIZED', 20_000_000],
      ['region:nc-cd-6', ['SERVING'], '2023-01-03', 'FULL', null],
    ]);
    const vertices = (g: { coordinates: unknown }) => JSON.stringify(g.coordinates).split('],[').length;
    // Full-resolution TIGER against the 1:20M cartographic outline.
    expect(vertices(cds[1].boundary)).toBeGreaterThan(20 * vertices(cds[0].boundary));
    const ballot = await get(`${stack.url}/v1/ballot?lat=${lat}&lng=${lng}&date=2024-11-05`, key);
    expect(
      ballot.body.regions
        .filter((r: { slug: string }) => r.slug.startsWith('region:nc-cd-'))
        .map((r: { slug: string }) => r.slug),
    ).toEqual(['region:nc-cd-5']);
  });

  it("lists a region's versions with their intervals, sources and precision", async () => {
    const nc = await get(`${stack.url}/v1/regions/region:nc-cd-6?date=2024-06-01`, key);
    expect(nc.status).toBe(200);
    const stamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    expect(nc.body.versions).toEqual([
      {
        valid_from: '2023-01-03',
        valid_to: '2025-01-03',
        elections_from: '2022-01-01',
        elections_to: '2024-01-01',
        source: 'tl_2022_37_cd118.shp',
        precision: 'full',
        scale_denominator: null,
        imported_at: stamp,
      },
      {
        valid_from: '2025-01-03',
        valid_to: null,
        elections_from: '2024-01-01',
        elections_to: null,
        source: 'cb_2024_us_cd119_20m',
        precision: 'generalized',
        scale_denominator: 20_000_000,
        imported_at: stamp,
      },
    ]);
    // Colorado's 1:20M version never serves: the full-resolution map has no end.
    const co = await get(`${stack.url}/v1/regions/region:co-cd-1`, key);
    expect(co.body.versions.map((v: { source: string; valid_to: string | null }) => [v.source, v.valid_to])).toEqual([
      ['tl_2022_08_cd118.shp', null],
    ]);
  });

  it(
    "a map imported with the registry map's own dates takes its place for that state only",
    async () => {
      await imported({ path: tiger('44'), validity: { from: '2025-01-03', electionsFrom: '2024-01-01' } });
      await expect
        .poll(
          async () =>
            (await get(`${stack.url}/v1/regions/region:ri-cd-1`, key)).body.versions.map(
              (v: { source: string; valid_from: string }) => [v.source, v.valid_from],
            ),
          { timeout: scaled(120_000) },
        )
        .toEqual([
          ['tl_2022_44_cd118.shp', '2023-01-03'],
          ['tl_2022_44_cd118.shp', '2025-01-03'],
        ]);
      expect(
        (await get(`${stack.url}/v1/regions/region:co-cd-1`, key)).body.versions.map(
          (v: { source: string }) => v.source,
        ),
      ).toEqual(['tl_2022_08_cd118.shp']);
      expect(await districts(POINTS.newport, '2025-06-01')).toHaveLength(1);
    },
    scaled(180_000),
  );
});

describe('imports that would take a map away are refused and change nothing', () => {
  const file = (name: string, features: unknown[]) => {
    const path = join(scratch, name);
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features }));
    return path;
  };
  const nan = {
    type: 'Feature',
    properties: { STATEFP: '08', CD118FP: '01' },
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [NaN, 39],
          [-104, 39],
          [-104, 40],
          [NaN, 39],
        ],
      ],
    },
  };
  let before: Served[][];
  let generation: number;

  beforeAll(async () => {
    before = await everywhere();
    generation = store.generation();
  });

  const refusal = async (req: Omit<BoundaryImport, 'level'>) => {
    const err = await imported(req).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ImportRefusedError);
    expect(store.generation()).toBe(generation);
    return err as ImportRefusedError;
  };

  it('an empty file', async () => {
    const err = await refusal({ path: file('empty.geojson', []), validity: V118 });
    expect(err).toMatchObject({
      field: 'file',
      message: expect.stringMatching(/no usable feature \(0 feature\(s\) read\)\. Nothing was changed\./),
    });
  });

  it('a file whose every feature is rejected (NaN coordinates)', async () => {
    const err = await refusal({ path: file('nan.geojson', [nan]), validity: V118 });
    expect(err.field).toBe('file');
    expect(err.summary.rejectedByCode).toEqual({ malformed_geometry: 1 });
  });

  it(
    'a file that would delete districts of a stored map, unless --replace says so',
    async () => {
      const { collection } = await readBoundaryFile(tiger('08'));
      const sevenOfEight = file(
        'co-7.geojson',
        collection.features.filter((f) => f.properties['CD118FP'] !== '08'),
      );
      const err = await refusal({ path: sevenOfEight, validity: V118 });
      expect(err.field).toBe('replace');
      expect(err.message).toBe(
        'The import would delete 1 of the 8 stored versions of the congressional-district map of CO from 2023-01-03 (region:co-cd-8@2023-01-03); deletions need --replace. Nothing was changed.',
      );
      expect(err.summary.change.deleted).toEqual(['region:co-cd-8@2023-01-03']);
      expect((await refusal({ path: sevenOfEight, validity: V118, maxDeleteFraction: 0.1 })).field).toBe('replace');
      expect(await everywhere()).toEqual(before);
      // Allowed when asked for; the full file brings the district back.
      expect((await imported({ path: sevenOfEight, validity: V118, maxDeleteFraction: 0.125 })).change.deleted).toEqual(
        ['region:co-cd-8@2023-01-03'],
      );
      expect((await imported({ path: tiger('08'), validity: V118, replace: true })).change.created).toEqual([
        'region:co-cd-8@2023-01-03',
      ]);
      generation = store.generation();
    },
    scaled(120_000),
  );

  it(
    'with strict, a file with any rejected feature; without, its good features import',
    async () => {
      const { collection } = await readBoundaryFile(tiger('08'));
      const mixed = file('co-mixed.geojson', [...collection.features, nan]);
      const err = await refusal({ path: mixed, validity: V118, strict: true });
      expect(err).toMatchObject({
        field: 'strict',
        message: '1 feature(s) rejected (1 malformed_geometry); strict mode refuses the import. Nothing was changed.',
      });
      const lenient = await imported({ path: mixed, validity: V118 });
      expect(lenient).toMatchObject({
        change: { created: [], updated: [], deleted: [], unchanged: 8 },
        rejected: [{ index: 8, code: 'malformed_geometry' }],
      });
      // The service has reloaded the restored map by now or will shortly.
      await expect.poll(everywhere, { timeout: scaled(120_000) }).toEqual(before);
    },
    scaled(120_000),
  );
});

// Shared by the engine's tests and benchmark only: full-resolution boundaries read from
// /work/shared/data, and points on and near their edges. Nothing in the service imports it.
import { read } from 'shapefile';
import { seededRandom, sharedData, STATES_BY_FIPS } from '@civicgraph/kit';
import { loadGeoJsonFile } from '../../store/geojson-file.js';
import { loadUsAtlas } from '../../store/us-atlas.js';
import { polygonsOf } from '../point-in-polygon.js';
import { Level, type RegionGeometry, type RegionRecord } from '../region.js';

/** [lat, lng] */
export type LatLng = [number, number];

export { sharedData };

/** Census TIGER/Line 2022 118th-Congress districts of one state (FIPS `08`), full resolution. */
export async function tigerDistricts(stateFips: string): Promise<RegionRecord[]> {
  const dir = sharedData('boundaries/congressional/tiger2022-cd118');
  if (dir === undefined) return [];
  const collection = await read(`${dir}/tl_2022_${stateFips}_cd118.shp`);
  const state = STATES_BY_FIPS.get(stateFips)?.usps ?? stateFips;
  return collection.features.map((f) => {
    const [geoid, cd, name] = [
      String(f.properties['GEOID20']),
      String(f.properties['CD118FP']),
      String(f.properties['NAMELSAD20']),
    ];
    return {
      slug: `region:${state}-cd-${cd}`,
      name,
      level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
      fips: geoid,
      ocdId: '',
      state,
      geometry: f.geometry as RegionGeometry,
    };
  });
}

/** Colorado's 2021 state senate and house districts (GeoJSON), or none when the files are absent. */
export function coloradoLegislative(): RegionRecord[] {
  const senate = sharedData('boundaries/state-legislative/co/co-state-senate-districts-2021.geojson');
  const house = sharedData('boundaries/state-legislative/co/co-state-house-districts-2021.geojson');
  return [
    ...(senate === undefined
      ? []
      : loadGeoJsonFile(senate, Level.LEVEL_STATE_LEGISLATIVE_UPPER, { state: 'co' }).regions),
    ...(house === undefined
      ? []
      : loadGeoJsonFile(house, Level.LEVEL_STATE_LEGISLATIVE_LOWER, { state: 'co' }).regions),
  ];
}

/** us-atlas states and counties, 119th-Congress districts and Colorado's legislative districts. */
export function nationalRegions(): RegionRecord[] {
  const cd119 = sharedData('boundaries/congressional/us-cd119-20m.geojson');
  return [
    ...loadUsAtlas({ populationCsv: sharedData('population/derived/county-population-v2023.csv') }),
    ...(cd119 === undefined ? [] : loadGeoJsonFile(cd119, Level.LEVEL_CONGRESSIONAL_DISTRICT).regions),
    ...coloradoLegislative(),
  ];
}

/** `count` points uniform over [south, north] × [west, east]. */
export function uniformPoints(count: number, seed: number, [west, south, east, north]: readonly number[]): LatLng[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => [
    south! + random() * (north! - south!),
    west! + random() * (east! - west!),
  ]);
}

const METRE_LAT = 1 / 111_320;

/**
 * `count` points on and near the regions' edges: a fifth exactly on vertices, a fifth on
 * edges (at a random fraction, rounded to the nearest double), and the rest scattered up to
 * `metres` away from a vertex or an edge point, a third of those by only 10⁻¹²…10⁻⁶ degrees.
 */
export function pointsNearEdges(regions: readonly RegionRecord[], count: number, seed: number, metres = 100): LatLng[] {
  const random = seededRandom(seed);
  const rings = regions.flatMap((r) => polygonsOf(r.geometry).flat()).filter((ring) => ring.length > 1);
  const weights = rings.map((ring) => ring.length);
  const total = weights.reduce((a, b) => a + b, 0);
  const edgePoint = (t: number): LatLng => {
    let k = Math.floor(random() * total),
      r = 0;
    while (k >= weights[r]!) k -= weights[r++]!;
    const ring = rings[r]!;
    const [a, b] = [ring[k]!, ring[(k + 1) % ring.length]!];
    return [a[1]! + t * (b[1]! - a[1]!), a[0]! + t * (b[0]! - a[0]!)];
  };
  return Array.from({ length: count }, (_, i): LatLng => {
    const kind = i % 5;
    if (kind === 0) return edgePoint(0);
    if (kind === 1) return edgePoint(random());
    const [lat, lng] = edgePoint(random() < 0.5 ? 0 : random());
    const reach = kind === 2 ? 10 ** -(6 + Math.floor(random() * 7)) : metres * METRE_LAT * random();
    const angle = random() * 2 * Math.PI;
    const [y, x] = [lat + reach * Math.sin(angle), lng + (reach * Math.cos(angle)) / Math.cos((lat * Math.PI) / 180)];
    return [Math.min(90, Math.max(-90, y)), Math.min(180, Math.max(-180, x))];
  });
}

/** [west, south, east, north] of the regions' vertices. */
export function bboxOf(regions: readonly RegionRecord[]): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const r of regions) {
    for (const [x, y] of polygonsOf(r.geometry).flat(2)) {
      [w, s, e, n] = [Math.min(w, x!), Math.min(s, y!), Math.max(e, x!), Math.max(n, y!)];
    }
  }
  return [w, s, e, n];
}

// The two workloads (polygon sets) and their seeded point sets.
import { createRequire } from 'node:module';
import { loadGeoJsonFile, loadUsAtlas } from '@civicgraph/geo';
import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { seededRandom } from '@civicgraph/kit';

// shapefile is a dependency of services/geo, resolved from there.
const shapefile = createRequire(new URL('../../../services/geo/package.json', import.meta.url))('shapefile');

/** TIGER state FIPS → lowercase USPS, for the states the cd118 folder holds. */
const USPS = { '02': 'ak', '08': 'co', '09': 'ct', 10: 'de', 44: 'ri', 50: 'vt' };

/** Workload (a): us-atlas states + counties + the 119th Congress (1:20M), over the US bounding box. */
export function workloadA(shared) {
  const atlas = loadUsAtlas({ populationCsv: `${shared}population/derived/county-population-v2023.csv` });
  const cds = loadGeoJsonFile(
    `${shared}boundaries/congressional/us-cd119-20m.geojson`,
    Level.LEVEL_CONGRESSIONAL_DISTRICT,
  ).regions;
  return {
    id: 'a',
    name: 'us-atlas states + counties + 119th CDs (1:20M)',
    regions: [...atlas, ...cds],
    bbox: { minLng: -125, maxLng: -66, minLat: 24, maxLat: 50 },
  };
}

/** Workload (b): full-resolution TIGER 2022 cd118 shapefiles + Colorado's 2021 legislative districts, over Colorado. */
export async function workloadB(shared) {
  const dir = `${shared}boundaries/congressional/tiger2022-cd118/`;
  const regions = [];
  for (const fips of Object.keys(USPS)) {
    const fc = await shapefile.read(`${dir}tl_2022_${fips}_cd118.shp`, `${dir}tl_2022_${fips}_cd118.dbf`);
    for (const f of fc.features) {
      const r = tigerDistrict(f);
      if (r !== undefined) regions.push(r);
    }
  }
  const leg = `${shared}boundaries/state-legislative/co/`;
  regions.push(
    ...loadGeoJsonFile(`${leg}co-state-senate-districts-2021.geojson`, Level.LEVEL_STATE_LEGISLATIVE_UPPER, {
      state: 'co',
    }).regions,
  );
  regions.push(
    ...loadGeoJsonFile(`${leg}co-state-house-districts-2021.geojson`, Level.LEVEL_STATE_LEGISLATIVE_LOWER, {
      state: 'co',
    }).regions,
  );
  return {
    id: 'b',
    name: 'TIGER 2022 cd118 full resolution (AK CO CT DE RI VT) + CO senate + CO house (2021)',
    regions,
    bbox: { minLng: -109.060204, maxLng: -102.041522, minLat: 36.992449, maxLat: 41.003444 },
  };
}

/**
 * One TIGER cd118 feature as a RegionRecord; undefined for `ZZ` (water, no district). At-large
 * code `00` is keyed `at-large`, as the geo service's own loader names it.
 */
function tigerDistrict(f) {
  const p = f.properties;
  const code = String(p.CD118FP);
  if (/^z+$/i.test(code) || f.geometry === null) return undefined;
  const state = USPS[p.STATEFP20];
  if (state === undefined) throw new Error(`TIGER cd118: unexpected STATEFP20 ${p.STATEFP20}`);
  const key = code === '00' ? 'at-large' : String(Number(code));
  return {
    slug: `region:${state}-cd-${key}`,
    name: p.NAMELSAD20,
    level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
    fips: p.GEOID20,
    ocdId: '',
    state,
    geometry: f.geometry,
  };
}

/** Total vertices of a workload (closing vertices included), for the report. */
export function vertexCount(regions) {
  let n = 0;
  for (const r of regions) for (const poly of polygons(r.geometry)) for (const ring of poly) n += ring.length;
  return n;
}

export function polygons(geometry) {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** A named set of points: parallel typed arrays. */
function pointSet(name, n) {
  return { name, lng: new Float64Array(n), lat: new Float64Array(n) };
}

/** Points uniform over a bounding box (seeded). */
export function uniformPoints(bbox, n, seed) {
  const rand = seededRandom(seed);
  const set = pointSet('uniform', n);
  for (let i = 0; i < n; i++) {
    set.lng[i] = bbox.minLng + rand() * (bbox.maxLng - bbox.minLng);
    set.lat[i] = bbox.minLat + rand() * (bbox.maxLat - bbox.minLat);
  }
  return set;
}

const METRES_PER_DEGREE = 111_320;

/**
 * Points within 100 m of a boundary (seeded): a random region, a random ring of it, a random
 * vertex of it or the midpoint of the edge after it, moved up to 100 m in a random direction
 * (uniform over the disc). Points that leave the valid coordinate range are drawn again.
 */
export function boundaryPoints(regions, n, seed) {
  const rand = seededRandom(seed);
  const rings = regions.map((r) => polygons(r.geometry).flat());
  const set = pointSet('near boundary', n);
  for (let i = 0; i < n;) {
    const rs = rings[Math.floor(rand() * rings.length)];
    const ring = rs[Math.floor(rand() * rs.length)];
    if (ring.length < 2) continue;
    const k = Math.floor(rand() * (ring.length - 1));
    const mid = rand() < 0.5;
    const x = mid ? (ring[k][0] + ring[k + 1][0]) / 2 : ring[k][0];
    const y = mid ? (ring[k][1] + ring[k + 1][1]) / 2 : ring[k][1];
    const r = 100 * Math.sqrt(rand());
    const theta = 2 * Math.PI * rand();
    const lat = y + (r * Math.cos(theta)) / METRES_PER_DEGREE;
    const lng = x + (r * Math.sin(theta)) / (METRES_PER_DEGREE * Math.cos((y * Math.PI) / 180));
    if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)) continue;
    set.lng[i] = lng;
    set.lat[i] = lat;
    i += 1;
  }
  return set;
}

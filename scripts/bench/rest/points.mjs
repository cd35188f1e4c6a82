// Seeded ballot points: uniform over the area of a few states (us-atlas outlines, the ones
// geo serves), as `lat=…&lng=…` query strings rounded to 5 decimals (about 1 m). Every
// state of the demo graph has contests (U.S. Senator, Governor, its congressional
// districts, the President in a presidential year, and commissioner and sheriff in its
// first three counties), so every point's ballot has some.
import { DistrictIndex, loadUsAtlas } from '@civicgraph/geo';
import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { seededRandom } from '@civicgraph/kit';

function bbox(geometry) {
  const b = { minLng: Infinity, maxLng: -Infinity, minLat: Infinity, maxLat: -Infinity };
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  for (const poly of polys) {
    for (const [lng, lat] of poly[0]) {
      b.minLng = Math.min(b.minLng, lng);
      b.maxLng = Math.max(b.maxLng, lng);
      b.minLat = Math.min(b.minLat, lat);
      b.maxLat = Math.max(b.maxLat, lat);
    }
  }
  return b;
}

/** The states' outlines and an index over them, built once per process. */
export function statePicker(states) {
  const regions = loadUsAtlas().filter((r) => r.level === Level.LEVEL_STATE && states.includes(r.state));
  if (regions.length !== states.length)
    throw new Error(`points: us-atlas has ${regions.length} of the states ${states.join(', ')}`);
  const index = DistrictIndex.build(regions);
  return { index, states: regions.map((r) => ({ state: r.state, slug: r.slug, box: bbox(r.geometry) })) };
}

/**
 * `n` distinct query strings, split evenly over the picker's states (seeded), each point
 * drawn uniformly from the state's bounding box until it falls inside the state;
 * `exclude` holds query strings already used elsewhere (kept distinct from them).
 */
export function ballotQueries(picker, n, seed, exclude = new Set()) {
  const rand = seededRandom(seed);
  const out = [];
  const seen = new Set(exclude);
  while (out.length < n) {
    const s = picker.states[out.length % picker.states.length];
    const lng = s.box.minLng + rand() * (s.box.maxLng - s.box.minLng);
    const lat = s.box.minLat + rand() * (s.box.maxLat - s.box.minLat);
    const q = `lat=${lat.toFixed(5)}&lng=${lng.toFixed(5)}`;
    if (
      seen.has(q) ||
      !picker.index.lookup(Number(lat.toFixed(5)), Number(lng.toFixed(5))).some((r) => r.slug === s.slug)
    )
      continue;
    seen.add(q);
    out.push(q);
  }
  return out;
}

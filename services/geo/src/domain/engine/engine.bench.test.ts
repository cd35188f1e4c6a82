// The engine's benchmark, in the test runner only for its TypeScript loading: it asserts
// nothing and runs only when GEO_BENCH=1 (GEO_BENCH_OUT=<file> also writes the report).
//   GEO_BENCH=1 npx vitest run services/geo/src/domain/engine/engine.bench.test.ts
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, test } from 'vitest';
import { DistrictIndex } from '../district-index.js';
import { Level, type RegionRecord } from '../region.js';
import { bboxOf, coloradoLegislative, nationalRegions, pointsNearEdges, tigerDistricts, uniformPoints, type LatLng } from './test-data.js';

type WhichPolygon = (pt: [number, number], all: true) => unknown[] | null;
const whichPolygon = createRequire(import.meta.url)('which-polygon') as (fc: unknown) => WhichPolygon;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CONUS = [-124.8, 24.4, -66.8, 49.4] as const;
const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  console.info(line);
};

interface Timing {
  mean: number;
  p50: number;
  p99: number;
  hits: number;
}

/** µs per call: the mean from a tight loop (best of 3), percentiles from calls timed one by one less the timer's own cost. */
function time(fn: (lat: number, lng: number) => number, points: readonly LatLng[]): Timing {
  let mean = Infinity, hits = 0;
  for (let run = 0; run < 3; run += 1) {
    hits = 0;
    const t0 = process.hrtime.bigint();
    for (const [lat, lng] of points) hits += fn(lat, lng);
    mean = Math.min(mean, Number(process.hrtime.bigint() - t0) / 1e3 / points.length);
  }
  const timer = median(points.map(() => -Number(process.hrtime.bigint() - process.hrtime.bigint())));
  const each = points.map(([lat, lng]) => {
    const t0 = process.hrtime.bigint();
    fn(lat, lng);
    return Number(process.hrtime.bigint() - t0) - timer;
  }).sort((a, b) => a - b);
  return { mean, p50: each[Math.floor(each.length / 2)]! / 1e3, p99: each[Math.floor(each.length * 0.99)]! / 1e3, hits };
}

function median(xs: number[]): number {
  return xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

function peerOf(regions: readonly RegionRecord[]): WhichPolygon {
  return whichPolygon({ type: 'FeatureCollection', features: regions.map((r) => ({ type: 'Feature', properties: { slug: r.slug }, geometry: r.geometry })) });
}

function heapBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function row(name: string, ours: Timing, peer: Timing | undefined): string {
  const f = (n: number) => n.toFixed(2);
  const speedup = peer === undefined ? '' : `${(peer.mean / ours.mean).toFixed(1)}×`;
  const theirs = peer === undefined ? '| | |' : `| ${f(peer.mean)} | ${f(peer.p50)} | ${f(peer.p99)} |`;
  return `| ${name} | ${f(ours.mean)} | ${f(ours.p50)} | ${f(ours.p99)} ${theirs} ${speedup} |`;
}

function compare(name: string, index: DistrictIndex, peer: WhichPolygon, points: readonly LatLng[], peerPoints: number): string {
  const ours = time((lat, lng) => index.lookup(lat, lng).length, points);
  const theirs = time((lat, lng) => peer([lng, lat], true)?.length ?? 0, points.slice(0, peerPoints));
  const oursOnPeerPoints = points.slice(0, peerPoints).reduce((n, [lat, lng]) => n + index.lookup(lat, lng).length, 0);
  return `${row(name, ours, theirs)} ${oursOnPeerPoints} / ${theirs.hits} |`;
}

describe.runIf(process.env['GEO_BENCH'] === '1')('engine benchmark', () => {
  test('national index: build, memory, lookups against which-polygon', () => {
    const regions = nationalRegions();
    const before = heapBytes();
    const index = DistrictIndex.build(regions, { resolution: 5 });
    const held = heapBytes() - before;
    const s = index.stats;
    log(`## National: us-atlas states + counties, CD119 (20m), Colorado legislative — ${s.regions} regions, ${s.vertices.toLocaleString('en-US')} vertices`);
    log(`build ${(s.buildMs / 1000).toFixed(2)} s; heap held after gc ${(held / 2 ** 20).toFixed(1)} MiB; stats.bytes ${(s.bytes / 2 ** 20).toFixed(1)} MiB (${s.bytesPerVertex.toFixed(0)} B/vertex)`);
    log(`stats ${JSON.stringify(s)}`);
    log('| points | ours mean µs | p50 | p99 | which-polygon mean µs | p50 | p99 | speed-up | hits ours / peer (peer points) |');
    log('|---|---|---|---|---|---|---|---|---|');
    const uniform = uniformPoints(100_000, 42, CONUS);
    const counties = regions.filter((r) => r.level === Level.LEVEL_COUNTY);
    log(compare('counties only, 100k uniform over CONUS', DistrictIndex.build(counties, { resolution: 5 }), peerOf(counties), uniform, 100_000));
    const atlas = regions.filter((r) => r.level <= Level.LEVEL_CONGRESSIONAL_DISTRICT);
    const peer = peerOf(atlas);
    const atlasIndex = DistrictIndex.build(atlas, { resolution: 5 });
    log(compare('(a) states+counties+CD119, 100k uniform over CONUS', atlasIndex, peer, uniform, 100_000));
    log(compare('(a) same, 20k within 100 m of edges', atlasIndex, peer, pointsNearEdges(atlas, 20_000, 43), 20_000));
    log(compare('national set, 100k uniform over CONUS', index, peerOf(regions), uniform, 100_000));
  }, 600_000);

  test('TIGER Colorado (CD118 full resolution) + Colorado legislative: lookups against which-polygon, by resolution', async () => {
    const regions = [...(await tigerDistricts('08')), ...coloradoLegislative()];
    const peer = peerOf(regions);
    const uniform = uniformPoints(100_000, 44, bboxOf(regions));
    const near = pointsNearEdges(regions, 20_000, 45);
    let index: DistrictIndex | undefined;
    for (const resolution of [4, 5, 6]) {
      index = undefined; // so the previous build is collected before measuring
      const before = heapBytes();
      index = DistrictIndex.build(regions, { resolution });
      const held = heapBytes() - before;
      const s = index.stats;
      log(`## (b) TIGER CO CD118 + CO legislative, resolution ${resolution} — ${s.regions} regions, ${s.vertices.toLocaleString('en-US')} vertices`);
      log(`build ${(s.buildMs / 1000).toFixed(2)} s; heap held ${(held / 2 ** 20).toFixed(1)} MiB; stats.bytes ${(s.bytes / 2 ** 20).toFixed(1)} MiB (${s.bytesPerVertex.toFixed(0)} B/vertex); tree nodes ${s.treeNodes}, leaf parts ${s.parts}, leaf edges ${s.partEdges}`);
      log('| points | ours mean µs | p50 | p99 | which-polygon mean µs | p50 | p99 | speed-up | hits ours / peer (peer points) |');
      log('|---|---|---|---|---|---|---|---|---|');
      log(compare('uniform over Colorado (peer: first 3k)', index, peer, uniform, 3000));
      log(compare('within 100 m of edges (peer: first 3k)', index, peer, near, 3000));
    }
    if (process.env['GEO_BENCH_OUT']) writeFileSync(process.env['GEO_BENCH_OUT'], `${lines.join('\n')}\n`);
  }, 600_000);
});

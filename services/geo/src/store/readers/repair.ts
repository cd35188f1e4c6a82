import type { PolygonCoordinates, Position, RegionGeometry } from '../../domain/region.js';
import type { RejectCode } from '../features.js';
import { findRingCrossing, type RingCrossing } from './ring-crossing.js';

/**
 * The outcome of repairing one feature's geometry: a Polygon or MultiPolygon and the
 * repairs made to get it, or no geometry and the reason the feature is rejected.
 */
export interface RepairResult {
  geometry: RegionGeometry | undefined;
  /** What was changed, in words (`closed 1 unclosed ring`); empty when nothing was. */
  repairs: string[];
  /** Set exactly when `geometry` is undefined. */
  reject?: { code: RejectCode; reason: string };
}

/** Thrown inside this module for malformed input; becomes a rejection. */
class Reject extends Error {
  constructor(
    readonly code: RejectCode,
    message: string,
  ) {
    super(message);
  }
}

interface Tally {
  duplicates: number;
  closed: number;
  degenerate: number;
  /** Holes dropped with their degenerate outer ring. */
  orphans: number;
  /** Slivers cut where a ring crossed itself (`cutSlivers`), and the largest's share of its ring's area. */
  slivers: number;
  largestSliver: number;
}

/**
 * Repairs one feature's geometry, in whatever planar coordinates it comes (lon/lat or a
 * projection), so that a bad feature never aborts the rest of a file:
 * - null, non-polygonal types and malformed coordinates are rejected;
 * - a GeometryCollection is flattened to its polygons (points and lines ignored; rejected
 *   when it holds none);
 * - consecutive duplicate vertices are removed and unclosed rings closed;
 * - rings with fewer than 4 positions or zero area are dropped (a polygon whose outer ring
 *   goes is dropped with its holes; rejected when no polygon is left);
 * - where a ring crosses itself and one side of the crossing is a sliver (at most a
 *   billionth of the ring's area: a digitising slip, like the 4 m overshoot in Colorado's
 *   2021 Senate District 13), the sliver is cut off at the crossing; any other ring that
 *   crosses itself (a bowtie) is rejected: splitting it correctly needs a topology engine,
 *   and guessing would move a boundary. Crossings between different rings (a hole poking
 *   out of its shell) are not checked.
 * Positions keep x and y only (Z and M are dropped).
 */
export function repairGeometry(geometry: unknown): RepairResult {
  const repairs: string[] = [];
  try {
    const polygons = polygonsIn(geometry, repairs);
    const tally: Tally = { duplicates: 0, closed: 0, degenerate: 0, orphans: 0, slivers: 0, largestSliver: 0 };
    const kept = polygons.flatMap((p, i) => cleanPolygon(p, polygons.length > 1 ? `polygon ${i + 1}, ` : '', tally));
    repairs.push(...describeTally(tally));
    if (kept.length === 0)
      throw new Reject(
        'degenerate_geometry',
        tally.degenerate === 0 ? 'empty geometry' : 'no valid rings: every outer ring is empty or degenerate',
      );
    const result: RegionGeometry =
      kept.length === 1 ? { type: 'Polygon', coordinates: kept[0]! } : { type: 'MultiPolygon', coordinates: kept };
    return { geometry: result, repairs };
  } catch (err) {
    if (!(err instanceof Reject)) throw err;
    return { geometry: undefined, repairs, reject: { code: err.code, reason: err.message } };
  }
}

function polygonsIn(geometry: unknown, repairs: string[]): unknown[] {
  if (geometry === null || geometry === undefined) throw new Reject('no_geometry', 'no geometry (null)');
  const g = geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return arrayOf(g.coordinates, 'coordinates');
  if (g.type === 'GeometryCollection') return flattenCollection(arrayOf(g.geometries, 'geometries'), repairs);
  throw new Reject('not_polygonal', `geometry type ${String(g.type)} is not polygonal`);
}

function flattenCollection(members: unknown[], repairs: string[]): unknown[] {
  const ignored = new Map<string, number>();
  const polygons = members.flatMap((m) => {
    const type = String((m as { type?: unknown } | null)?.type);
    if (type === 'Polygon' || type === 'MultiPolygon' || type === 'GeometryCollection') return polygonsIn(m, repairs);
    ignored.set(type, (ignored.get(type) ?? 0) + 1);
    return [];
  });
  const others = [...ignored].map(([type, n]) => `${n} ${type}`).join(', ');
  if (polygons.length === 0)
    throw new Reject(
      'not_polygonal',
      `GeometryCollection holds no polygons${others === '' ? '' : ` (only ${others})`}`,
    );
  repairs.push(
    `flattened a GeometryCollection to ${polygons.length} polygon(s)${others === '' ? '' : `, ignoring ${others}`}`,
  );
  return polygons;
}

function arrayOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Reject('malformed_geometry', `malformed geometry: ${what} is not an array`);
  return value;
}

/** The polygon with clean rings, or nothing when its outer ring is degenerate. */
function cleanPolygon(polygon: unknown, label: string, tally: Tally): PolygonCoordinates[] {
  const rings = arrayOf(polygon, 'a polygon').map((ring, r) =>
    cleanRing(arrayOf(ring, 'a ring'), `${label}${r === 0 ? 'outer ring' : `hole ${r}`}`, tally),
  );
  const [outer, ...holes] = rings;
  if (outer === undefined) return [];
  if (outer === null) {
    tally.orphans += holes.filter((h) => h !== null).length;
    return [];
  }
  return [[outer, ...holes.filter((h): h is Position[] => h !== null)]];
}

/**
 * A closed ring without repeated vertices, or null (counted) when it is degenerate. The
 * crossing check comes before the zero-area test because a symmetric bowtie's lobes
 * cancel: it has zero signed area but is not degenerate.
 */
function cleanRing(ring: unknown[], label: string, tally: Tally): Position[] | null {
  const positions: Position[] = [];
  for (const p of ring) {
    const xy = positionOf(p);
    const last = positions[positions.length - 1];
    if (last !== undefined && last[0] === xy[0] && last[1] === xy[1]) tally.duplicates++;
    else positions.push(xy);
  }
  const first = positions[0];
  const last = positions[positions.length - 1];
  if (
    first !== undefined &&
    last !== undefined &&
    positions.length > 1 &&
    (first[0] !== last[0] || first[1] !== last[1])
  ) {
    positions.push(first);
    tally.closed++;
  }
  const kept = positions.length >= 4 ? cutSlivers(positions, label, tally) : positions;
  if (kept.length < 4 || ringArea(kept) === 0) {
    tally.degenerate++;
    return null;
  }
  return kept;
}

/** The largest sliver a crossing may cut off, as a share of its ring's area. */
const SLIVER_SHARE = 1e-9;
/** Crossings cut from one ring at most, before it is rejected as too tangled to be a slip. */
const MAX_CUTS = 64;

/**
 * The ring with every sliver cut off where it crosses itself. A crossing of edges e and f
 * splits a closed ring into two closed rings that meet at the crossing point P: the loop
 * P, ring[e+1..f], P and the rest ring[0..e], P, ring[f+1..]. Their areas add up to the
 * ring's, so dropping the smaller moves the boundary by exactly its area; it is dropped
 * only when that is a sliver, else the ring is rejected.
 */
function cutSlivers(ring: Position[], label: string, tally: Tally): Position[] {
  for (let cuts = 0; ; cuts++) {
    const crossing = findRingCrossing(ring);
    if (crossing === undefined) return ring;
    const [e, f] = crossing.edges;
    const at: Position = [crossing.at[0], crossing.at[1]];
    const loop = [at, ...ring.slice(e + 1, f + 1), at];
    const rest = [...ring.slice(0, e + 1), at, ...ring.slice(f + 1)];
    const [small, large] = Math.abs(ringArea(loop)) <= Math.abs(ringArea(rest)) ? [loop, rest] : [rest, loop];
    const share = Math.abs(ringArea(small)) / Math.abs(ringArea(large));
    if (!(share <= SLIVER_SHARE) || cuts === MAX_CUTS) rejectCrossing(crossing, label);
    tally.slivers++;
    tally.largestSliver = Math.max(tally.largestSliver, share);
    ring = withoutRepeats(large);
  }
}

function withoutRepeats(ring: readonly Position[]): Position[] {
  return ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1]![0] || p[1] !== ring[i - 1]![1]);
}

function positionOf(p: unknown): Position {
  const [x, y] = Array.isArray(p) ? (p as unknown[]) : [];
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) {
    throw new Reject('malformed_geometry', `malformed coordinates: ${shortJson(p)} is not a pair of finite numbers`);
  }
  return [x, y];
}

/** A value as JSON for a message: cut at 80 characters; one nested too deeply to print is said to be. */
function shortJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return 'a value nested too deeply to print';
  }
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Twice the signed area, taken relative to the first vertex to limit cancellation. */
function ringArea(ring: readonly Position[]): number {
  const [ox, oy] = [ring[0]![0]!, ring[0]![1]!];
  let sum = 0;
  for (let i = 1; i + 1 < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    sum += (a[0]! - ox) * (b[1]! - oy) - (b[0]! - ox) * (a[1]! - oy);
  }
  return sum;
}

function rejectCrossing(crossing: RingCrossing, label: string): never {
  const [x, y] = crossing.at.map((v) => Number(v.toPrecision(10)));
  throw new Reject(
    'self_intersecting',
    `self-intersecting ring (${label}): edges ${crossing.edges[0]} and ${crossing.edges[1]} cross at [${x}, ${y}]`,
  );
}

function describeTally(t: Tally): string[] {
  const out: string[] = [];
  if (t.duplicates > 0) out.push(`removed ${t.duplicates} consecutive duplicate vertex(es)`);
  if (t.closed > 0) out.push(`closed ${t.closed} unclosed ring(s)`);
  if (t.degenerate > 0) out.push(`dropped ${t.degenerate} degenerate ring(s) (fewer than 4 positions or zero area)`);
  if (t.orphans > 0) out.push(`dropped ${t.orphans} hole(s) of degenerate outer rings`);
  if (t.slivers > 0)
    out.push(
      `cut ${t.slivers} sliver(s) where a ring crossed itself (the largest ${t.largestSliver.toPrecision(2)} of its ring's area)`,
    );
  return out;
}

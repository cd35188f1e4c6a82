import type { Level, RegionRecord, Validity } from './region.js';

/**
 * One map as loaded: the versions one source holds for one level and one state, all with
 * the same validity. Of maps that date a map the same day, the finer one (smaller `scale`)
 * is served, then the higher `rank` (an import over a default file, a default file over
 * us-atlas).
 */
export interface MapLayer {
  level: Level;
  /** Lowercase USPS code; '' for the national level. */
  state: string;
  /** Undefined: a map in force on every date until a dated one supersedes it. */
  validity: Validity | undefined;
  rank: number;
  /** Scale denominator of a generalised (cartographic) map; 0 for a full-resolution one. */
  scale: number;
  regions: readonly RegionRecord[];
}

/**
 * The versions to serve, each with the validity it actually has: for each level and state,
 * maps ordered by `valid_from` form one timeline in which a newer map supersedes the older
 * from its own dates — the older's serving interval ends where the newer's starts, its
 * electing interval where the newer's elections start — so two versions of one level and
 * state never serve (or elect) on the same date. Of maps dated the same day, only the
 * finest, then highest-ranked, is kept. A coarser map never supersedes a finer one: it
 * starts only where the finer map's own dates end (never, when they are open), so a
 * 1:20,000,000 map serves only where nothing better is in force. Versions left with no date
 * to serve or elect on are dropped.
 */
export function effectiveRegions(layers: readonly MapLayer[]): RegionRecord[] {
  const out: RegionRecord[] = [];
  for (const timeline of groupByLevelAndState(layers).values()) {
    const maps = deferredByFiner(oneMapPerStart(timeline));
    maps.forEach((map, i) => {
      const validity = closedBy(map.validity, maps[i + 1]?.validity);
      if (validity !== undefined && isEmpty(validity)) return;
      for (const region of map.regions) out.push(withValidity(region, validity));
    });
  }
  return out;
}

function groupByLevelAndState(layers: readonly MapLayer[]): Map<string, MapLayer[]> {
  const groups = new Map<string, MapLayer[]>();
  for (const layer of layers) {
    const key = `${layer.level}|${layer.state}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [layer]);
    else group.push(layer);
  }
  return groups;
}

/** Oldest first (undated before dated); of maps starting the same day, the finest, then highest-ranked, only. */
function oneMapPerStart(maps: readonly MapLayer[]): MapLayer[] {
  const sorted = [...maps].sort((a, b) => compareStart(a, b) || a.scale - b.scale || b.rank - a.rank);
  return sorted.filter((map, i) => i === 0 || compareStart(sorted[i - 1]!, map) !== 0);
}

/**
 * Each map's start moved past the declared end of every earlier, finer map (serving past
 * its `to`, electing past its `electionsTo`); a role a finer map holds with no end is gone,
 * and a map left with neither role is dropped. Maps (in start order) keep their order.
 */
function deferredByFiner(maps: readonly MapLayer[]): MapLayer[] {
  const out: MapLayer[] = [];
  for (const map of maps) {
    let validity = map.validity;
    for (const finer of out.filter((m) => m.scale < map.scale)) validity = startAfter(validity, finer.validity);
    if (validity === map.validity) out.push(map);
    else if (validity !== undefined && !isEmpty(validity))
      out.push({ ...map, validity, regions: map.regions.map((r) => withValidity(r, validity)) });
  }
  return out;
}

/** `v` begun no earlier than `finer` ends, per role; an open end leaves that role empty (from = to). */
function startAfter(v: Validity | undefined, finer: Validity | undefined): Validity | undefined {
  const own = v ?? {};
  const serve = later(own.from, finer?.to);
  const elect = later(own.electionsFrom ?? own.from, finer?.electionsTo ?? finer?.to);
  const next: Validity = { ...own };
  if (serve === OPEN) Object.assign(next, { from: own.to ?? FOREVER, to: own.to ?? FOREVER });
  else if (serve !== undefined) next.from = serve;
  if (elect === OPEN)
    Object.assign(next, {
      electionsFrom: own.electionsTo ?? own.to ?? FOREVER,
      electionsTo: own.electionsTo ?? own.to ?? FOREVER,
    });
  else if (elect !== undefined) next.electionsFrom = elect;
  return next;
}

const OPEN = Symbol('open');
/** A date after every date asked about, for an interval emptied whole. */
const FOREVER = '9999-12-31';

/** The later of a start and a finer map's end; OPEN when the finer map has no end. */
function later(start: string | undefined, finerEnd: string | undefined): string | undefined | typeof OPEN {
  if (finerEnd === undefined) return OPEN;
  return start === undefined || start < finerEnd ? finerEnd : start;
}

function compareStart(a: MapLayer, b: MapLayer): number {
  const x = a.validity?.from ?? '';
  const y = b.validity?.from ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `v` ended by the next map: serving stops when the next one serves, electing when the
 * next one's elections start (an end already given that comes earlier is kept).
 */
export function closedBy(v: Validity | undefined, next: Validity | undefined): Validity | undefined {
  if (next === undefined) return v;
  const own = v ?? {};
  const to = earlier(own.to, next.from);
  const electionsTo = earlier(own.electionsTo ?? own.to, next.electionsFrom ?? next.from);
  return {
    ...own,
    ...(to === undefined ? {} : { to }),
    ...(electionsTo === undefined ? {} : { electionsTo }),
  };
}

function earlier(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a < b ? a : b;
}

/** No day on which the version serves or elects. */
function isEmpty(v: Validity): boolean {
  const serves = v.from === undefined || v.to === undefined || v.from < v.to;
  const electsFrom = v.electionsFrom ?? v.from;
  const electsTo = v.electionsTo ?? v.to;
  const elects = electsFrom === undefined || electsTo === undefined || electsFrom < electsTo;
  return !serves && !elects;
}

function withValidity(region: RegionRecord, validity: Validity | undefined): RegionRecord {
  if (validity === undefined) {
    if (region.validity === undefined) return region;
    const { validity: _dropped, ...rest } = region;
    return rest;
  }
  return { ...region, validity };
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature, type TopoFeature } from 'topojson-client';
import { countyIdentity, fullCountyName } from '../domain/county.js';
import { type StateInfo, stateOcdId, STATES_BY_FIPS } from '@civicgraph/kit';
import { Level, type RegionGeometry, type RegionRecord } from '../domain/region.js';
import { readPopulationCsv, type PopulationRow } from './population-csv.js';

/** Options for `loadUsAtlas`. */
export interface UsAtlasOptions {
  /**
   * Census PEP county population CSV (see `readPopulationCsv`). It supplies full county
   * names ("Denver County", "Orleans Parish", "Baltimore city") and July 2023 populations;
   * without it, or when the file is missing, names are built from us-atlas's bare names
   * (`fullCountyName`) and regions carry no population.
   */
  populationCsv?: string | undefined;
}

/** What a load joined, for logs: us-atlas FIPS codes with no population row, and why. */
export interface UsAtlasReport {
  readonly regions: RegionRecord[];
  /** The population CSV that was read, or undefined when none was given or found. */
  readonly populationCsv: string | undefined;
  /** FIPS codes of regions that found no row in the CSV (CT's old counties, PR, …). */
  readonly unjoined: string[];
}

/** Where us-atlas's regions come from, as their versions cite it. */
export const US_ATLAS_SOURCE = {
  name: 'us-atlas counties-10m.json (Census cartographic boundaries 1:10M, 2017 edition)',
  scale: 10_000_000,
} as const;

/** Every state-level division and county of us-atlas's `counties-10m.json`. */
export function loadUsAtlas(options: UsAtlasOptions = {}): RegionRecord[] {
  return loadUsAtlasWithReport(options).regions;
}

/**
 * Loads us-atlas (Census 1:10M cartographic boundaries, unprojected lon/lat): the 50
 * states, DC, Puerto Rico and the island areas as STATE regions (`region:co`, fips `08`)
 * and every county-equivalent as a COUNTY region (`region:co-denver-county`, fips `08031`).
 */
export function loadUsAtlasWithReport(options: UsAtlasOptions = {}): UsAtlasReport {
  const topology = readTopology();
  const rows = options.populationCsv === undefined ? undefined : readPopulationCsv(options.populationCsv);
  const unjoined: string[] = [];
  const regions: RegionRecord[] = [];
  for (const [object, level] of [
    ['states', Level.LEVEL_STATE],
    ['counties', Level.LEVEL_COUNTY],
  ] as const) {
    for (const f of feature(topology, topology.objects[object]).features) {
      const region = toRegion(f, level, rows);
      if (region === undefined) continue;
      if (rows !== undefined && !rows.has(region.fips)) unjoined.push(region.fips);
      regions.push(region);
    }
  }
  return { regions, populationCsv: rows === undefined ? undefined : options.populationCsv, unjoined };
}

interface Topology {
  objects: Record<'states' | 'counties', unknown>;
}

function readTopology(): Topology {
  const file = createRequire(import.meta.url).resolve('us-atlas/counties-10m.json');
  return JSON.parse(readFileSync(file, 'utf8')) as Topology;
}

function toRegion(
  f: TopoFeature,
  level: Level,
  rows: Map<string, PopulationRow> | undefined,
): RegionRecord | undefined {
  const fips = String(f.id ?? '');
  const state = STATES_BY_FIPS.get(fips.slice(0, 2));
  const geometry = f.geometry;
  if (state === undefined || geometry === null || (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon'))
    return undefined;
  const bare = String(f.properties?.name ?? '');
  const row = rows?.get(fips);
  const base =
    level === Level.LEVEL_STATE
      ? stateIdentity(state, bare)
      : countyIdentity(state, fips, row?.name ?? fullCountyName(state, fips, bare));
  return {
    ...base,
    level,
    fips,
    ...(row === undefined ? {} : { population: row.population }),
    state: state.usps,
    geometry: geometry as RegionGeometry,
    source: US_ATLAS_SOURCE,
  };
}

function stateIdentity(state: StateInfo, name: string): { slug: string; name: string; ocdId: string } {
  return { slug: `region:${state.usps}`, name: name || state.name, ocdId: stateOcdId(state) };
}

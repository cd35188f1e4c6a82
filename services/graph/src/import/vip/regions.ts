import { childOcdId, ocdKey, type StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import type { Level } from '../../model/kinds.js';
import { slugKey } from '../../model/slugs.js';
import { legislativeRegion, nationalRegion } from '../shared/index.js';
import { congressionalOf, countyOf } from '../results/regions.js';
import { regionOf, stateOf, titleCase, type ServedRegion } from '../shared/served-regions.js';
import type { FeedElement } from './feed-index.js';
import { stateOfOcdId } from './feed-state.js';
import { externalId, text } from './xml.js';

/**
 * A region a feed element names. Standard regions (the nation, states, counties,
 * congressional and legislative districts, places) are reference drafts: the ocd import
 * owns their data, and the VIP importer only creates them when missing. Regions only VIP
 * knows (precincts, school districts) are stated by the feed.
 */
export type RegionPlan = ServedRegion;
type Found = RegionPlan | { problem: string };

/** ElectoralDistrict `Type` (VIP DistrictType) → how to name the region. */
const PLACE_TYPES = new Set(['city', 'town', 'township', 'village', 'municipality', 'borough']);

/** The region of an ElectoralDistrict, by its Type, OCD id and Number. */
export function districtRegion(fe: FeedElement, feedState: StateInfo | undefined): Found {
  const ocdId = externalId(fe.el, 'ocd-id');
  const state = stateOfOcdId(ocdId) ?? feedState;
  const type = (text(fe.el, 'Type') ?? '').toLowerCase();
  if (type === 'national') return regionOf(nationalRegion());
  if (state === undefined) return { problem: `${fe.label}: no state (no OCD id, and the feed names no State)` };
  const name = text(fe.el, 'Name') ?? '';
  const number = text(fe.el, 'Number') ?? lastOcdKey(ocdId);
  switch (type) {
    case 'state':
      return stateOf(state);
    case 'congressional': {
      const cd = number === undefined ? undefined : congressionalOf(state, number);
      return cd === undefined
        ? { problem: `${fe.label}: congressional district "${number ?? ''}" is not a district number` }
        : regionOf(cd);
    }
    case 'state-senate':
    case 'state-house': {
      const d =
        number === undefined
          ? undefined
          : legislativeRegion(state, type === 'state-senate' ? 'upper' : 'lower', number);
      return d === undefined
        ? { problem: `${fe.label}: legislative district "${number ?? ''}" names no district` }
        : regionOf(d);
    }
    case 'county':
      return countyRegion(state, name, ocdId);
    case 'school':
      return stated(state, name, 'school-district', ocdId ?? childOcdId(state, 'school_district', ocdKey(name)));
    default:
      if (PLACE_TYPES.has(type)) return placeRegion(state, name, ocdId);
      return { problem: `${fe.label}: districts of Type "${type || '(none)'}" have no region level in the graph` };
  }
}

/** The region of a Locality: a county, or a city, town or village as a place. */
export function localityRegion(fe: FeedElement, state: StateInfo | undefined): Found {
  if (state === undefined) return { problem: `${fe.label}: no state (no StateId, and the feed names no State)` };
  const type = (text(fe.el, 'Type') ?? 'county').toLowerCase();
  const name = text(fe.el, 'Name') ?? '';
  const ocdId = externalId(fe.el, 'ocd-id');
  if (type === 'county') return countyRegion(state, name, ocdId);
  if (PLACE_TYPES.has(type)) return placeRegion(state, name, ocdId);
  return { problem: `${fe.label}: localities of Type "${type}" have no region level in the graph` };
}

/**
 * A precinct: `region:<st>-precinct-<number>`, as the geo service keys precinct
 * boundaries by their code (VIP 6.0 feeds ship them as a shapefile whose ELECTPCT is the
 * precinct Number), so a point lookup and the feed name the same precinct.
 */
export function precinctRegion(fe: FeedElement, state: StateInfo | undefined): Found {
  if (state === undefined) return { problem: `${fe.label}: no state (the feed names no State)` };
  const number = text(fe.el, 'Number');
  const name = text(fe.el, 'Name') ?? number;
  const code = number ?? name;
  if (code === undefined || slugKey(code) === '')
    return { problem: `${fe.label}: a precinct needs a Number or a Name` };
  const ocdId = externalId(fe.el, 'ocd-id') ?? childOcdId(state, 'precinct', ocdKey(code));
  const draft: PlainDraft<'region'> = {
    kind: 'region',
    slug: `region:${state.usps}-precinct-${slugKey(code)}`,
    state: state.usps,
    tier: '',
    data: { name: name ?? code, level: 'precinct', fips: number ?? '', ocdId, aliases: [], population: null },
  };
  return { draft, key: draft.slug.slice('region:'.length), level: 'precinct', name: draft.data.name };
}

function countyRegion(state: StateInfo, name: string, ocdId: string | undefined): Found {
  const fromOcd = /\/county:([^/]+)$/.exec(ocdId ?? '')?.[1];
  const bare =
    fromOcd !== undefined
      ? fromOcd.replace(/_/g, ' ').replace(/~/g, "'")
      : name.replace(/\s+(county|parish|borough)$/i, '');
  if (bare.trim() === '') return { problem: `county with no name` };
  return countyOf(state, bare.toUpperCase());
}

function placeRegion(state: StateInfo, name: string, ocdId: string | undefined): Found {
  if (name.trim() === '') return { problem: `place with no name` };
  const pretty = titleCase(name.toUpperCase());
  return regionOf({
    kind: 'region',
    slug: `region:${state.usps}-${slugKey(pretty)}`,
    state: state.usps,
    tier: '',
    data: {
      name: pretty,
      level: 'place',
      fips: '',
      ocdId: ocdId ?? childOcdId(state, 'place', ocdKey(pretty)),
      aliases: [],
      population: null,
    },
  });
}

/** A region the feed owns: stated, not a reference. */
function stated(state: StateInfo, name: string, level: Level, ocdId: string): Found {
  if (name.trim() === '') return { problem: `a ${level} with no name` };
  const pretty = titleCase(name.toUpperCase());
  const draft: PlainDraft<'region'> = {
    kind: 'region',
    slug: `region:${state.usps}-${slugKey(pretty)}`,
    state: state.usps,
    tier: '',
    data: { name: pretty, level, fips: '', ocdId, aliases: [], population: null },
  };
  return { draft, key: draft.slug.slice('region:'.length), level, name: pretty };
}

/** `…/sldl:25` → `25`. */
function lastOcdKey(ocdId: string | undefined): string | undefined {
  return /:([^:/]+)$/.exec(ocdId ?? '')?.[1];
}

import { DistrictRole, type Geocode, type Region, type RegionVersion } from '@civicgraph/protos/civic/geo/v1/geo';
import { LEVELS, restLevel } from '@civicgraph/kit';
import { nullable, object, orNull, ref, type JsonSchema } from '../schema/json-schema.js';

/**
 * The geographic resources: a region as /v1/districts_by_point, /v1/districts_by_address
 * and /v1/regions/{slug} send it, and a boundary as the GeoJSON Feature
 * /v1/regions/{slug}/boundary sends (geography.ts).
 */

const date = (description: string): JsonSchema => nullable({ type: 'string', format: 'date', description });
const numberArray = (minItems: number): JsonSchema => ({ type: 'array', items: { type: 'number' }, minItems });
const arrayOf = (items: JsonSchema, minItems?: number): JsonSchema => ({
  type: 'array',
  items,
  ...(minItems === undefined ? {} : { minItems }),
});

/** REST words of the district roles (`DISTRICT_ROLE_SERVING` → `serving`). */
const DISTRICT_ROLES = ['serving', 'electing'] as const;

/** Where a version's outline came from and how exact it is: on every Region and RegionVersion. */
const SOURCE_PROPERTIES: Record<string, JsonSchema> = {
  source: nullable({
    type: 'string',
    description:
      "The file or data set this version's outline came from, e.g. `tl_2022_08_cd118.shp` (Census TIGER/Line) or `cb_2024_us_cd119_20m`.",
  }),
  precision: {
    type: 'string',
    enum: ['full', 'generalized'],
    description:
      "`full`: the source's full-resolution outline, so the answer is exact. `generalized`: a cartographic generalisation (see `scale_denominator`), served only where no full-resolution map is loaded; within about a kilometre of its boundary at 1:20M the answer may name a neighbouring district.",
  },
  scale_denominator: nullable({
    type: 'integer',
    minimum: 1,
    description: 'Map scale of a generalized outline, e.g. 20000000 for 1:20M; null at full resolution.',
  }),
};

const REGION_PROPERTIES: Record<string, JsonSchema> = {
  slug: { type: 'string', pattern: '^region:', description: 'A region slug, e.g. `region:co-denver-county`.' },
  name: { type: 'string', description: 'Display name.' },
  level: { type: 'string', enum: LEVELS.map(restLevel), description: "The region's level." },
  fips: nullable({ type: 'string', description: 'Census FIPS / GEOID.' }),
  population: nullable({ type: 'integer', minimum: 0, description: 'Resident population, where a source gives it.' }),
  ocd_id: nullable({ type: 'string', description: 'Open Civic Data division id.' }),
  roles: {
    type: 'array',
    items: { type: 'string', enum: DISTRICT_ROLES },
    description:
      "How this version applies on the date: `serving` (the people elected under it hold office) and/or `electing` (elections on the date use it). Between a new map's first elections and its first day of service a point has one district of each role.",
  },
  valid_from: date('First day this version of the region serves; null when it has no start.'),
  valid_to: date('First day it no longer serves (half-open interval); null when open.'),
  ...SOURCE_PROPERTIES,
  share: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    description: "Only for an ambiguous address: the share of the geocode's uncertainty area inside the region.",
  },
};

const POINT = object(
  { lat: { type: 'number', minimum: -90, maximum: 90 }, lng: { type: 'number', minimum: -180, maximum: 180 } },
  [],
  'A coordinate (WGS84).',
);

const polygon = arrayOf(arrayOf(numberArray(2), 4));
const geometry = (type: string, coordinates: JsonSchema): JsonSchema =>
  object({ type: { type: 'string', enum: [type] }, coordinates });

/** Region, RegionVersion, RegionDetail, the two district lookups (with Geocode) and Boundary. */
export const schemas: Record<string, JsonSchema> = {
  Region: object(
    REGION_PROPERTIES,
    ['share'],
    'A region (district, county, state, …) in its version in force on the date.',
  ),
  RegionVersion: object(
    {
      valid_from: date('First day this version serves; null when it has no start.'),
      valid_to: date(
        "First day it no longer serves (the next map's `valid_from` when one supersedes it); null when open.",
      ),
      elections_from: date('First day elections use this map; null when the same as `valid_from`.'),
      elections_to: date(
        "First day elections no longer use it (the next map's `elections_from`); null when the same as `valid_to`.",
      ),
      ...SOURCE_PROPERTIES,
      imported_at: nullable({
        type: 'string',
        format: 'date-time',
        description: 'When an import stored this version; null for a map the deployment loads from its configuration.',
      }),
    },
    [],
    "One version of a region's boundary, when it applies and where it came from. Versions of one level and state never overlap: a newer map ends an older one's intervals where its own begin.",
  ),
  RegionDetail: object(
    {
      ...REGION_PROPERTIES,
      versions: {
        type: 'array',
        items: ref('RegionVersion'),
        description: 'Every version of the region served on some date, oldest first.',
      },
      boundary_url: { type: 'string', description: 'Where the boundary of the region is (a path under this server).' },
    },
    ['share'],
    "A region's metadata with the validity of every version.",
  ),
  DistrictsAtPoint: object(
    {
      point: POINT,
      date: { type: 'string', format: 'date', description: 'The day asked about.' },
      data: { type: 'array', items: ref('Region'), description: 'Every region containing the point on the date.' },
      next_cursor: { type: 'null', description: 'Always null: one page.' },
    },
    [],
    'The districts containing a point.',
  ),
  Geocode: object(
    {
      point: POINT,
      precision: {
        type: 'string',
        enum: ['coordinates', 'rooftop', 'street', 'zip', 'city'],
        description: 'How precisely the address was placed.',
      },
      source: { type: 'string', description: 'Which geocoder and data answered, e.g. `embedded:zipcodes`, `census`.' },
      matched: { type: 'string', description: 'The address as understood, normalised.' },
      uncertainty_radius_meters: nullable({
        type: 'number',
        minimum: 0,
        description: 'Radius of the area the address may lie in; null for an exact geocode.',
      }),
    },
    [],
    'Where an address was placed.',
  ),
  DistrictsByAddress: object(
    {
      address: { type: 'string', description: 'The address as sent.' },
      date: { type: 'string', format: 'date', description: 'The day asked about.' },
      geocode: nullable(ref('Geocode')),
      ambiguous: {
        type: 'boolean',
        description:
          'The geocode stands for an area (a ZIP, a city): several districts per level may apply, each with its `share`.',
      },
      data: {
        type: 'array',
        items: ref('Region'),
        description: 'Every region meeting the geocode (its point, or its uncertainty area when ambiguous).',
      },
      next_cursor: { type: 'null', description: 'Always null: one page.' },
    },
    [],
    'The districts containing an address.',
  ),
  Boundary: object(
    {
      type: { type: 'string', enum: ['Feature'] },
      properties: object({
        slug: { type: 'string', pattern: '^region:' },
        valid_from: date('First day this version serves; null when it has no start.'),
        valid_to: date('First day it no longer serves; null when open.'),
        simplify_meters: {
          type: 'number',
          minimum: 0,
          description: 'The simplification tolerance applied (0 = full resolution).',
        },
        vertices: { type: 'integer', minimum: 0, description: 'Vertices in the geometry sent.' },
        source_vertices: { type: 'integer', minimum: 0, description: 'Vertices in the stored geometry.' },
      }),
      geometry: {
        anyOf: [geometry('Polygon', polygon), geometry('MultiPolygon', arrayOf(polygon))],
        description: 'GeoJSON Polygon or MultiPolygon, WGS84 `[lng, lat]` positions.',
      },
    },
    [],
    "A region's outline as a GeoJSON Feature (RFC 7946).",
  ),
};

/** `DISTRICT_ROLE_SERVING` → `serving`. */
function roleWord(role: DistrictRole): string {
  return (DistrictRole[role] ?? 'DISTRICT_ROLE_UNSPECIFIED').slice('DISTRICT_ROLE_'.length).toLowerCase();
}

/** Where an outline came from and how exact it is (Region and RegionVersion alike). */
function boundarySource(r: { source: string; precision: string; scaleDenominator: number }) {
  return {
    source: orNull(r.source),
    precision: r.precision,
    scale_denominator: r.scaleDenominator === 0 ? null : r.scaleDenominator,
  };
}

/** REST shape of a region (snake_case; nullable where the source may lack a value). */
export function regionView(r: Region) {
  return {
    slug: r.slug,
    name: r.name,
    level: restLevel(r.level),
    fips: orNull(r.fips),
    population: r.population === undefined ? null : Number(r.population),
    ocd_id: orNull(r.ocdId),
    roles: r.roles.map(roleWord),
    valid_from: orNull(r.validFrom),
    valid_to: orNull(r.validTo),
    ...boundarySource(r),
    ...(r.share === undefined ? {} : { share: Math.round(r.share * 1000) / 1000 }),
  };
}

export function versionView(v: RegionVersion) {
  return {
    valid_from: orNull(v.validFrom),
    valid_to: orNull(v.validTo),
    elections_from: orNull(v.electionsFrom),
    elections_to: orNull(v.electionsTo),
    imported_at: orNull(v.importedAt),
    ...boundarySource(v),
  };
}

export function geocodeView(g: Geocode | undefined) {
  if (g === undefined) return null;
  return {
    point: { lat: g.lat, lng: g.lng },
    precision: g.precision,
    source: g.source,
    matched: g.matched,
    uncertainty_radius_meters: g.uncertaintyRadiusMeters ?? null,
  };
}

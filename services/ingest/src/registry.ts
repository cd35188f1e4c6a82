import { STATES_BY_FIPS, type GraphImportKind } from '@civicgraph/kit';
import type { Origin } from './fetch/fetch-file.js';

/**
 * One file of a source: where the public copy is, and where a mirror laid out like the
 * repository's `shared/data` folder keeps the same content.
 */
export interface SourceFile {
  /**
   * Canonical public URL; absent for a file only mirrors keep loose, whose public copy is
   * inside another file of the source (a shapefile's `.dbf` inside the state's zip).
   */
  url?: string;
  /** Path under a mirror (`CIVIC_SOURCES_MIRROR`); absent when mirrors do not carry it (a run from a mirror leaves it out). */
  mirror?: string;
  /** Name (a relative path) the importer reads it by: importers know their files by name. */
  name: string;
  /**
   * The name of the mirror's copy, when a mirror keeps a smaller extract of the public file
   * (shared/data keeps Colorado's contest totals, the public file is every precinct's returns).
   */
  mirrorName?: string;
  /** The public file is a zip holding this entry (the FEC's weball26.zip holds weball26.txt); a mirror keeps the entry itself. */
  unzip?: string;
}

/** How a source reaches the graph or the boundary store. */
export type SourceImport =
  /**
   * `places`: another source's file, `<source id>:<name>` (Open States reads the OCD places
   * table); `exceptStates`: results only, the states another source's fuller returns cover;
   * `specialsOnly`: results only, the file's special elections alone.
   */
  | {
      kind: GraphImportKind;
      options?: { places?: string; exceptStates?: readonly string[]; specialsOnly?: boolean };
    }
  | {
      kind: 'boundaries';
      level: string;
      validFrom: string;
      validTo?: string;
      electionsFrom?: string;
      electionsTo?: string;
      state?: string;
    };

/** A public source civicgraph keeps itself current from. */
export interface Source {
  /** Stable id, e.g. `fec-weball26`. */
  id: string;
  name: string;
  publisher: string;
  licence: string;
  format: string;
  /** What it covers: a level, states, a cycle. */
  covers: string;
  import: SourceImport;
  files: SourceFile[];
  /**
   * A folder of files the registry cannot list (Open States: one file per person), staged
   * under `name`: its path under a local mirror, and the public archive it comes in.
   */
  tree?: { mirror: string; name: string; archive?: { url: string; prefix: string } };
  /** How often to look for a new version. */
  refreshHours: number;
  /**
   * The date of the copy in the repository's shared/data (see its SOURCES.md): what a
   * mirror's files are as of, for sources that carry no date of their own. A fetch over
   * HTTP dates them by Last-Modified instead.
   */
  snapshot?: string;
}

const RAW = 'https://raw.githubusercontent.com';
const OCD = `${RAW}/opencivicdata/ocd-division-ids/master/identifiers/country-us`;
const LEGISLATORS = `${RAW}/unitedstates/congress-legislators/main`;
const MEDSL = `${RAW}/MEDSL/2024-elections-official/main`;

/**
 * States whose 2024 general is imported from their own certified returns (medsl-co24,
 * medsl-de24): the national president and senate files leave them out, as they spell some
 * candidates differently (`PETER SONSKI AND LAUREN ONAK`), which would list one twice.
 */
const OWN_RETURNS: readonly string[] = ['co', 'de'];
const CENSUS = 'https://www2.census.gov/geo/tiger';
const DAY = 24;

/** States (FIPS) whose TIGER/Line 2022 118th-Congress districts shared/data keeps (SOURCES.md). */
const TIGER_IN_MIRROR = new Set(
  '01 02 04 05 08 09 10 12 13 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 34 35 36 37 38 39 40 41 42 44 45 46 47 49 50 51 53 54 55 56'.split(
    ' ',
  ),
);
/** States that redrew their congressional map for the 119th Congress (2025–2027), after the TIGER 2022 files. */
const REDRAWN_FOR_119 = new Set(['01', '13', '22', '36', '37']);
/** The 50 states, DC and Puerto Rico: the TIGER congressional files, one per state. */
const TIGER_STATES = [...STATES_BY_FIPS.values()]
  .filter((s) => s.kind !== 'territory' || s.usps === 'pr')
  .map((s) => s.fips);

/**
 * One state's TIGER/Line 2022 congressional districts: the public zip, which a mirror keeps
 * unzipped (the `.shp` with its sidecars, under shared/data's tiger2022-cd118 folder).
 */
function tigerFiles(fips: string): SourceFile[] {
  const base = `tl_2022_${fips}_cd118`;
  const mirrored = TIGER_IN_MIRROR.has(fips);
  const mirror = (ext: string) => `boundaries/congressional/tiger2022-cd118/${base}.${ext}`;
  const shp: SourceFile = {
    url: `${CENSUS}/TIGER2022/CD/${base}.zip`,
    name: `tiger2022-cd118/${base}.zip`,
    ...(mirrored ? { mirror: mirror('shp'), mirrorName: `tiger2022-cd118/${base}.shp` } : {}),
  };
  if (!mirrored) return [shp];
  return [
    shp,
    ...['shx', 'dbf', 'prj', 'cpg'].map((ext) => ({ mirror: mirror(ext), name: `tiger2022-cd118/${base}.${ext}` })),
  ];
}

const ocdFile = (path: string) => ({
  url: `${OCD}/${path}`,
  mirror: `ocd/country-us/${path}`,
  name: `country-us/${path}`,
});

/**
 * Every public source civicgraph imports, in the order a first load runs them: divisions
 * and people before the candidacies and results that point at them (the results importer
 * matches candidates to the people of their offices), boundaries last. What each file is
 * and its licence: the repository's shared/data/SOURCES.md.
 */
export const SOURCES: readonly Source[] = [
  {
    id: 'ocd-division-ids',
    name: 'Open Civic Data division ids (US)',
    publisher: 'Open Civic Data',
    licence: 'CC0 1.0',
    format: 'csv',
    covers: 'states, congressional and state legislative districts, counties',
    import: { kind: 'ocd' },
    files: [
      'states.csv',
      'us_territories.csv',
      'aliases.csv',
      'census_autogenerated/us_congressional_districts.csv',
      'census_autogenerated/us_sldu.csv',
      'census_autogenerated/us_sldl.csv',
      'census_autogenerated/us_census_places.csv',
    ].map(ocdFile),
    refreshHours: 7 * DAY,
    snapshot: '2026-03-19',
  },
  {
    id: 'congress-legislators',
    name: 'Members of Congress (congress-legislators)',
    publisher: '@unitedstates',
    licence: 'CC0 1.0',
    format: 'yaml',
    covers: 'current members of Congress and their terms',
    import: { kind: 'legislators' },
    files: [
      {
        url: `${LEGISLATORS}/legislators-current.yaml`,
        mirror: 'officeholders/congress-legislators/legislators-current.yaml',
        name: 'legislators-current.yaml',
      },
    ],
    refreshHours: DAY,
    snapshot: '2026-06-15',
  },
  {
    id: 'openstates-people',
    name: 'State officeholders (Open States people)',
    publisher: 'Open States',
    licence: 'CC0 1.0',
    format: 'yaml',
    covers: 'CO and DE: legislators, statewide executives, mayors',
    import: {
      kind: 'openstates-people',
      options: { places: 'ocd-division-ids:country-us/census_autogenerated/us_census_places.csv' },
    },
    files: [],
    tree: {
      mirror: 'officeholders/openstates-people',
      name: 'openstates-people',
      // The whole repository; the importer reads the states the staged folder holds.
      archive: { url: 'https://github.com/openstates/people/archive/refs/heads/main.zip', prefix: 'people-main/data/' },
    },
    refreshHours: DAY,
    snapshot: '2026-08-05',
  },
  {
    id: 'fec-weball24',
    name: 'FEC all candidates, 2024 cycle',
    publisher: 'Federal Election Commission',
    licence: 'Public domain (U.S. government work)',
    format: 'pipe-delimited text',
    covers: 'federal candidates, 2024',
    import: { kind: 'fec-candidates' },
    files: [
      {
        url: 'https://www.fec.gov/files/bulk-downloads/2024/weball24.zip',
        mirror: 'candidates/fec/weball24.txt',
        name: 'weball24.txt',
        unzip: 'weball24.txt',
      },
    ],
    refreshHours: 7 * DAY,
  },
  {
    id: 'fec-weball26',
    name: 'FEC all candidates, 2026 cycle',
    publisher: 'Federal Election Commission',
    licence: 'Public domain (U.S. government work)',
    format: 'pipe-delimited text',
    covers: 'federal candidates, 2026',
    import: { kind: 'fec-candidates' },
    files: [
      {
        url: 'https://www.fec.gov/files/bulk-downloads/2026/weball26.zip',
        mirror: 'candidates/fec/weball26.txt',
        name: 'weball26.txt',
        unzip: 'weball26.txt',
      },
    ],
    refreshHours: DAY,
    snapshot: '2026-03-24',
  },
  {
    id: 'medsl-co24',
    name: 'Colorado 2024 general election certified returns (MEDSL)',
    publisher: 'Colorado election officials, compiled by MIT Election Data and Science Lab',
    licence: 'not stated (cite MIT Election Data and Science Lab)',
    format: 'csv',
    covers: 'CO, 2024-11-05: every contest, candidate and ballot question',
    import: { kind: 'results' },
    files: [
      {
        url: `${MEDSL}/individual_states/co24.zip`,
        mirror: 'results/medsl-2024/derived/co24-contest-totals.csv',
        name: 'co24.zip',
        mirrorName: 'co24-contest-totals.csv',
      },
    ],
    refreshHours: 7 * DAY,
  },
  {
    id: 'medsl-de24',
    name: 'Delaware 2024 general election certified returns (MEDSL)',
    publisher: 'Delaware election officials, compiled by MIT Election Data and Science Lab',
    licence: 'not stated (cite MIT Election Data and Science Lab)',
    format: 'csv (zipped)',
    covers: 'DE, 2024-11-05: every contest, candidate and ballot question',
    import: { kind: 'results' },
    files: [
      {
        url: `${MEDSL}/individual_states/de24.zip`,
        mirror: 'results/medsl-2024/individual_states/de24.zip',
        name: 'de24.zip',
      },
    ],
    refreshHours: 7 * DAY,
  },
  {
    id: 'medsl-2024-president-state',
    name: 'U.S. President 2024, certified returns by state (MEDSL)',
    publisher: 'State election officials, compiled by MIT Election Data and Science Lab',
    licence: 'not stated (cite MIT Election Data and Science Lab)',
    format: 'csv',
    covers: `every state and DC, 2024-11-05: the presidential candidates and their votes (${OWN_RETURNS.join(', ')}: from their own returns)`,
    import: { kind: 'results', options: { exceptStates: OWN_RETURNS } },
    files: [
      {
        url: `${MEDSL}/2024-president-state.csv`,
        mirror: 'results/medsl-2024/2024-president-state.csv',
        name: '2024-president-state.csv',
      },
    ],
    refreshHours: 7 * DAY,
  },
  {
    id: 'medsl-2024-senate-state',
    name: 'U.S. Senate 2024, certified returns by state (MEDSL)',
    publisher: 'State election officials, compiled by MIT Election Data and Science Lab',
    licence: 'not stated (cite MIT Election Data and Science Lab)',
    format: 'csv',
    covers: `the 33 Senate contests of 2024-11-05: candidates and votes (${OWN_RETURNS.join(', ')}: from their own returns)`,
    import: { kind: 'results', options: { exceptStates: OWN_RETURNS } },
    files: [
      {
        url: `${MEDSL}/2024-senate-state.csv`,
        mirror: 'results/medsl-2024/2024-senate-state.csv',
        name: '2024-senate-state.csv',
      },
    ],
    refreshHours: 7 * DAY,
  },
  {
    id: 'medsl-2024-senate-specials',
    name: 'U.S. Senate 2024 special elections, certified returns by county (MEDSL)',
    publisher: 'State election officials, compiled by MIT Election Data and Science Lab',
    licence: 'not stated (cite MIT Election Data and Science Lab)',
    format: 'csv',
    covers:
      "2024-11-05's Senate special elections (Nebraska's class 2 seat), summed from the county returns: the state file leaves them out",
    import: { kind: 'results', options: { exceptStates: OWN_RETURNS, specialsOnly: true } },
    files: [
      {
        url: `${MEDSL}/2024-senate-county.csv`,
        mirror: 'results/medsl-2024/2024-senate-county.csv',
        name: '2024-senate-county.csv',
      },
    ],
    refreshHours: 7 * DAY,
  },
  {
    id: 'medsl-co24-denver-precincts',
    name: 'Denver 2024 precinct returns (MEDSL co24, Denver)',
    publisher: 'Colorado election officials, compiled by MIT Election Data and Science Lab',
    licence: 'not stated (cite MIT Election Data and Science Lab)',
    format: 'csv',
    covers: 'which districts Denver County lies within or overlaps',
    import: { kind: 'precinct-districts' },
    files: [
      {
        url: `${MEDSL}/individual_states/co24.zip`,
        mirror: 'results/medsl-2024/derived/co24-denver-precinct.csv',
        name: 'co24.zip',
        mirrorName: 'co24-denver-precinct.csv',
      },
    ],
    refreshHours: 7 * DAY,
  },
  {
    id: 'medsl-de24-precincts',
    name: 'Delaware 2024 precinct returns (MEDSL de24)',
    publisher: 'Delaware election officials, compiled by MIT Election Data and Science Lab',
    licence: 'not stated (cite MIT Election Data and Science Lab)',
    format: 'csv (zipped)',
    covers: 'which districts each Delaware county lies within or overlaps',
    import: { kind: 'precinct-districts' },
    files: [
      {
        url: `${MEDSL}/individual_states/de24.zip`,
        mirror: 'results/medsl-2024/individual_states/de24.zip',
        name: 'de24.zip',
      },
    ],
    refreshHours: 7 * DAY,
  },
  {
    id: 'vip-maricopa-2020',
    name: 'Maricopa County, AZ, 2020-11-03 general: VIP 6.0 feed (Voting Information Project sample feed)',
    publisher: 'Maricopa County Elections Department, via the Voting Information Project',
    licence: 'CC BY 4.0 (credit "The Voting Information Project")',
    format: 'VIP 6.0 XML (zipped)',
    covers: 'AZ, Maricopa County, 2020-11-03: the election, its 748 precincts and their polling places',
    import: { kind: 'vip' },
    // The specification repository's sample feed, at the commit shared/data copied.
    files: [
      {
        url: `${RAW}/votinginfoproject/vip-specification/c2dac507f33046fda08b6690453f9e3e2bc5b15f/sample_feed_v6.zip`,
        mirror: 'vip/sample_feed_v6.zip',
        name: 'sample_feed_v6.zip',
      },
    ],
    refreshHours: 30 * DAY,
  },
  {
    id: 'tiger2022-cd',
    name: 'Congressional districts, 118th and 119th Congress (Census TIGER/Line 2022, full resolution)',
    publisher: 'U.S. Census Bureau',
    licence: 'Public domain (U.S. government work)',
    format: 'shapefile (zipped per state; a mirror keeps them unzipped)',
    covers:
      'congressional districts of every state but AL, GA, LA, NY and NC, DC and PR, whose 118th-Congress map is also the 119th; serving from 2023-01-03, elected from 2022',
    import: {
      kind: 'boundaries',
      level: 'congressional-district',
      validFrom: '2023-01-03',
      electionsFrom: '2022-01-01',
    },
    files: TIGER_STATES.filter((f) => !REDRAWN_FOR_119.has(f)).flatMap(tigerFiles),
    refreshHours: 30 * DAY,
  },
  {
    id: 'tiger2022-cd118-redrawn',
    name: '118th Congress districts of the states that redrew for the 119th (Census TIGER/Line 2022, full resolution)',
    publisher: 'U.S. Census Bureau',
    licence: 'Public domain (U.S. government work)',
    format: 'shapefile (zipped per state; a mirror keeps them unzipped)',
    covers:
      'congressional districts of AL, GA, LA, NY and NC for the 118th Congress only: serving 2023-01-03 to 2025-01-03, elected in 2022',
    import: {
      kind: 'boundaries',
      level: 'congressional-district',
      validFrom: '2023-01-03',
      validTo: '2025-01-03',
      electionsFrom: '2022-01-01',
      electionsTo: '2024-01-01',
    },
    files: TIGER_STATES.filter((f) => REDRAWN_FOR_119.has(f)).flatMap(tigerFiles),
    refreshHours: 30 * DAY,
  },
  {
    id: 'cd119-20m',
    name: '119th Congress districts (Census cartographic boundary, 1:20M)',
    publisher: 'U.S. Census Bureau',
    licence: 'Public domain (U.S. government work)',
    format: 'GeoJSON (mirror) / shapefile (public)',
    covers:
      'congressional districts, every state; serving from 2025-01-03, elected from 2024; serves only where no full-resolution map is in force',
    import: {
      kind: 'boundaries',
      level: 'congressional-district',
      validFrom: '2025-01-03',
      electionsFrom: '2024-01-01',
    },
    files: [
      {
        url: `${CENSUS}/GENZ2024/shp/cb_2024_us_cd119_20m.zip`,
        mirror: 'boundaries/congressional/us-cd119-20m.geojson',
        name: 'cb_2024_us_cd119_20m',
      },
    ],
    refreshHours: 30 * DAY,
  },
  {
    id: 'co-sldu-2021',
    name: 'Colorado State Senate districts, 2021 (Colorado Independent Legislative Redistricting Commission)',
    publisher: 'State of Colorado, via Open Water Foundation',
    licence: 'public (OWF asks for attribution)',
    format: 'GeoJSON',
    covers: 'CO state senate districts; elected from 2021-11-15, serving from 2023-01-09',
    import: {
      kind: 'boundaries',
      level: 'state-legislative-upper',
      validFrom: '2023-01-09',
      electionsFrom: '2021-11-15',
      state: 'co',
    },
    files: [
      {
        url: `${RAW}/OpenWaterFoundation/owf-data-co-legislative-districts/master/versions/2021/data/co-state-senate-districts-2021.geojson`,
        mirror: 'boundaries/state-legislative/co/co-state-senate-districts-2021.geojson',
        name: 'co-state-senate-districts-2021.geojson',
      },
    ],
    refreshHours: 30 * DAY,
  },
  {
    id: 'co-sldl-2021',
    name: 'Colorado State House districts, 2021 (Colorado Independent Legislative Redistricting Commission)',
    publisher: 'State of Colorado, via Open Water Foundation',
    licence: 'public (OWF asks for attribution)',
    format: 'GeoJSON',
    covers: 'CO state house districts; elected from 2021-11-15, serving from 2023-01-09',
    import: {
      kind: 'boundaries',
      level: 'state-legislative-lower',
      validFrom: '2023-01-09',
      electionsFrom: '2021-11-15',
      state: 'co',
    },
    files: [
      {
        url: `${RAW}/OpenWaterFoundation/owf-data-co-legislative-districts/master/versions/2021/data/co-state-house-districts-2021.geojson`,
        mirror: 'boundaries/state-legislative/co/co-state-house-districts-2021.geojson',
        name: 'co-state-house-districts-2021.geojson',
      },
    ],
    refreshHours: 30 * DAY,
  },
];

/** A source by id; undefined for an unknown one. */
export function sourceById(id: string): Source | undefined {
  return SOURCES.find((s) => s.id === id);
}

/** The name a file is staged and kept under when read from `origin`. */
export function stagedName(file: SourceFile, origin: Origin): string {
  return origin.kind === 'public' ? file.name : (file.mirrorName ?? file.name);
}

import { InvalidParameterError, type GraphImportKind } from '@civicgraph/kit';
import type { DraftItem } from '../domain/drafts.js';
import type { GraphStore } from '../store/graph-store.js';
import { importFecCandidates } from './fec/index.js';
import { fecPersonIndex, importLegislators } from './legislators/index.js';
import { importOcd } from './ocd/index.js';
import { importOpenStatesPeople } from './openstates/index.js';
import { importPrecinctDistricts, importResults } from './results/index.js';
import { importVip } from './vip/index.js';
import { officePeople } from './office-people.js';
import { storedCandidates } from './stored-candidates.js';

/** `civicgraph import <kind>` kinds for the election graph, with the public sources each reads. */
export const GRAPH_IMPORT_KINDS = {
  ocd: 'Open Civic Data division ids: a country-us folder or one of its CSV files',
  legislators: 'unitedstates/congress-legislators legislators-current.yaml (or executive.yaml)',
  'openstates-people': 'openstates/people: a state folder (data/co) or a folder of them; needs --retrieved-at',
  'fec-candidates': 'FEC "all candidates" file weballYY.txt (pipe-delimited, no header)',
  results: 'MEDSL 2024 CSV, or the Colorado / Delaware contest-totals files (or de24.zip)',
  'precinct-districts':
    'MEDSL precinct-level returns (de24.zip, co24-denver-precinct.csv): which districts each county lies within or overlaps',
  vip: 'Voting Information Project feed: VIP 5.x XML, or a VIP 6.0 zip/XML',
} as const satisfies Record<GraphImportKind, string>;
export type { GraphImportKind };

export function isGraphImportKind(s: string): s is GraphImportKind {
  return Object.hasOwn(GRAPH_IMPORT_KINDS, s);
}

export interface GraphImportOptions {
  /** FEC: the election cycle (default from the file name). */
  cycle?: number;
  /** FEC: a legislators-current.yaml whose FEC ids point sitting members' candidacies at their person nodes. */
  legislators?: string;
  /** OCD, legislators: the day the data is read as of (default today). */
  asOf?: string;
  /** When the source was published or downloaded; required for sources that carry no date of their own. */
  retrievedAt?: string;
  /**
   * How the file was delivered dates it (an HTTP Last-Modified, a mirror's snapshot date):
   * used when the source carries no date of its own and no `retrievedAt` is given.
   */
  sourceDate?: string;
  /** Open States: the OCD `country-us` folder or its us_census_places.csv, to find mayors' cities. */
  places?: string;
  /** Results: states (postal codes) whose rows are skipped, their own fuller returns being imported apart. */
  exceptStates?: readonly string[];
  /** Results: only the file's special elections are read. */
  specialsOnly?: boolean;
}

/** The importer for a kind, reading `path`; results are linked to candidacies the store already holds. */
export async function graphImporter(
  kind: GraphImportKind,
  path: string,
  store: GraphStore,
  o: GraphImportOptions = {},
): Promise<AsyncIterable<DraftItem>> {
  switch (kind) {
    case 'ocd':
      return importOcd(path, { ...asOf(o), ...when(o) });
    case 'legislators':
      return importLegislators(path, { ...asOf(o), ...when(o) });
    case 'openstates-people':
      return importOpenStatesPeople(path, { ...when(o), ...(o.places === undefined ? {} : { places: o.places }) });
    case 'fec-candidates': {
      // The store's knowledge first, a legislators file given now over it.
      const known = new Map([
        ...(await storedCandidates(store)),
        ...(o.legislators === undefined ? [] : await fecPersonIndex(o.legislators)),
      ]);
      return importFecCandidates(path, { ...(o.cycle === undefined ? {} : { cycle: o.cycle }), known, ...when(o) });
    }
    case 'results':
      return importResults(path, {
        officePeople: officePeople(store),
        ...provenance(o),
        ...(o.exceptStates === undefined ? {} : { exceptStates: o.exceptStates }),
        ...(o.specialsOnly === true ? { specialsOnly: true } : {}),
      });
    case 'precinct-districts':
      return importPrecinctDistricts(path, provenance(o));
    case 'vip':
      return importVip(path, provenance(o));
    default:
      throw new InvalidParameterError('kind', `unknown import kind "${String(kind)}"`);
  }
}

const asOf = (o: GraphImportOptions) => (o.asOf === undefined ? {} : { asOf: o.asOf });
const when = (o: GraphImportOptions) => ({
  ...(o.retrievedAt === undefined ? {} : { retrievedAt: o.retrievedAt }),
  ...(o.sourceDate === undefined ? {} : { sourceDate: o.sourceDate }),
});
const provenance = (o: GraphImportOptions) => ({ provenance: when(o) });

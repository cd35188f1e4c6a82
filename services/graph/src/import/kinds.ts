import { InvalidParameterError } from '@civicgraph/kit';
import type { DraftItem } from '../domain/drafts.js';
import type { GraphStore } from '../store/graph-store.js';
import { importFecCandidates } from './fec/index.js';
import { fecPersonIndex, importLegislators } from './legislators/index.js';
import { importOcd } from './ocd/index.js';
import { importOpenStatesPeople } from './openstates/index.js';
import { importResults } from './results/index.js';
import { importVip } from './vip/index.js';

/** `civicgraph import <kind>` kinds for the election graph, with the public sources each reads. */
export const GRAPH_IMPORT_KINDS = {
  ocd: 'Open Civic Data division ids: a country-us folder or one of its CSV files',
  legislators: 'unitedstates/congress-legislators legislators-current.yaml (or executive.yaml)',
  'openstates-people': 'openstates/people: a state folder (data/co) or a folder of them; needs --retrieved-at',
  'fec-candidates': 'FEC "all candidates" file weballYY.txt (pipe-delimited, no header)',
  results: 'MEDSL 2024 CSV, or the Colorado / Delaware contest-totals files (or de24.zip)',
  vip: 'Voting Information Project feed: VIP 5.x XML, or a VIP 6.0 zip/XML',
} as const;
export type GraphImportKind = keyof typeof GRAPH_IMPORT_KINDS;

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
  /** Open States: when the copy was taken (required: file times say when it was checked out). */
  retrievedAt?: string;
  /** Open States: the OCD `country-us` folder or its us_census_places.csv, to find mayors' cities. */
  places?: string;
}

/** The importer for a kind, reading `path`; results are linked to candidacies the store already holds. */
export async function graphImporter(kind: GraphImportKind, path: string, store: GraphStore, o: GraphImportOptions = {}): Promise<AsyncIterable<DraftItem>> {
  switch (kind) {
    case 'ocd':
      return importOcd(path, o.asOf === undefined ? {} : { asOf: o.asOf });
    case 'legislators':
      return importLegislators(path, o.asOf === undefined ? {} : { asOf: o.asOf });
    case 'openstates-people':
      return importOpenStatesPeople(path, { ...(o.retrievedAt === undefined ? {} : { retrievedAt: o.retrievedAt }), ...(o.places === undefined ? {} : { places: o.places }) });
    case 'fec-candidates': {
      const personSlugs = o.legislators === undefined ? undefined : await fecPersonIndex(o.legislators);
      return importFecCandidates(path, { ...(o.cycle === undefined ? {} : { cycle: o.cycle }), ...(personSlugs === undefined ? {} : { personSlugs }) });
    }
    case 'results':
      return importResults(path, { storedCandidacies: async (slugs) => (await store.getNodes(slugs)).map((n) => n.slug) });
    case 'vip':
      return importVip(path);
    default:
      throw new InvalidParameterError('kind', `unknown import kind "${String(kind)}"`);
  }
}

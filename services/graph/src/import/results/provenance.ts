import { basename } from 'node:path';
import type { PlainDraft } from '../../domain/drafts.js';
import type { ProvenanceData } from '../../model/nodes.js';
import { slugKey } from '../../model/slugs.js';
import { provenanceDraft, retrievedAt, type SourceDescription } from '../shared/index.js';

const MEDSL_COMMIT = '7ec08dbd33e7e0d74360477aec766a72c3ecc9df';
const MEDSL_REPO = `https://github.com/MEDSL/2024-elections-official/blob/${MEDSL_COMMIT}`;
const MEDSL = 'MIT Election Data and Science Lab';
const MEDSL_LICENCE = 'not stated (the MEDSL repository has no licence file)';

/** What the importer knows about a results file it may be given, by file name. */
interface KnownSource {
  key: string;
  data: Omit<ProvenanceData, 'retrievedAt'>;
  /** When the version the file comes from was published (the MEDSL commit it was taken at). */
  published: string;
}

/** The date of MEDSL_COMMIT: every known file was taken at it. */
const MEDSL_PUBLISHED = '2026-04-17';

const medsl = (key: string, source: string, path: string): KnownSource => ({
  key,
  data: { source, url: `${MEDSL_REPO}/${path}`, publisher: MEDSL, licence: MEDSL_LICENCE, method: 'import' },
  published: MEDSL_PUBLISHED,
});

/**
 * State canvass returns (each state's official precinct results, cleaned by MEDSL): the
 * state's official filing, as the certified totals are. `co24-contest-totals.csv` is our
 * sum of MEDSL's co24.csv (SOURCES.md), so it cites the upstream zip it was summed from.
 */
const canvass = (key: string, state: string, path: string): KnownSource => ({
  key,
  data: {
    source: `${state} 2024 general election official returns (precinct level, cleaned by MEDSL)`,
    url: `${MEDSL_REPO}/${path}`,
    publisher: `${state} election officials, compiled by ${MEDSL}`,
    licence: MEDSL_LICENCE,
    method: 'official-filing',
  },
  published: MEDSL_PUBLISHED,
});

const KNOWN: Readonly<Record<string, KnownSource>> = {
  '2024-president-state.csv': medsl(
    'medsl-2024-president-state',
    'MEDSL 2024 U.S. President returns by state',
    '2024-president-state.csv',
  ),
  '2024-senate-state.csv': medsl(
    'medsl-2024-senate-state',
    'MEDSL 2024 U.S. Senate returns by state',
    '2024-senate-state.csv',
  ),
  '2024-senate-county.csv': medsl(
    'medsl-2024-senate-county',
    'MEDSL 2024 U.S. Senate returns by county',
    '2024-senate-county.csv',
  ),
  'co24-contest-totals.csv': canvass('medsl-co24-contest-totals', 'Colorado', 'individual_states/co24.zip'),
  'co24-denver-precinct.csv': canvass('medsl-co24-denver-precinct', 'Colorado', 'individual_states/co24.zip'),
  'de24-contest-totals.csv': canvass('medsl-de24-contest-totals', 'Delaware', 'individual_states/de24.zip'),
  'de24.zip': canvass('medsl-de24', 'Delaware', 'individual_states/de24.zip'),
};

/** Provenance fields an import may set (the CLI passes them for files the importer does not know). */
export type ProvenanceOverrides = Partial<Omit<SourceDescription, 'retrievedAt'>> & {
  retrievedAt?: string | Date;
  /** How the file was delivered dates it (HTTP Last-Modified, a mirror's snapshot): used when it carries no date of its own. */
  sourceDate?: string;
};

export interface ResultsSource {
  draft: PlainDraft<'provenance'>;
  /** Whether rows that do not say official/unofficial count as certified: true for state canvass returns. */
  certifiedWhenUnsaid: boolean;
}

/**
 * The provenance record of a results file: known MEDSL files by name (slug stable per
 * file, e.g. `provenance:medsl-2024-president-state`), others as `provenance:results-<name>`
 * with `import` as the method and the file path as the URL unless overridden.
 * `retrievedAt` is the date given, else a known file's published version; an unknown file
 * without one is refused.
 */
export function resultsSource(path: string, overrides: ProvenanceOverrides = {}): ResultsSource {
  const name = basename(path);
  const known = KNOWN[name];
  const { retrievedAt: when, sourceDate, ...fields } = overrides;
  const description: SourceDescription = {
    key: known?.key ?? `results-${slugKey(name.replace(/\.[^.]+$/, ''))}`,
    ...(known?.data ?? {
      source: name,
      url: `file://${path}`,
      publisher: 'unknown',
      licence: 'unknown',
      method: 'import',
    }),
    ...fields,
    retrievedAt: retrievedAt(when, known?.published, path, sourceDate),
  };
  return { draft: provenanceDraft(description), certifiedWhenUnsaid: description.method === 'official-filing' };
}

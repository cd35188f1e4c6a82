import { basename } from 'node:path';
import type { DraftItem, PlainDraft } from '../../domain/drafts.js';
import { batchItem, rejected } from '../shared/batch.js';
import { parseDelimited, shapeProblem } from '../shared/csv.js';
import { ImportFileError } from '../shared/errors.js';
import { parseDate } from '../shared/dates.js';
import { provenanceDraft, retrievedAt } from '../shared/provenance.js';
import { readTextFile, type SourceEncoding } from '../shared/text-file.js';
import { candidateDrafts, type CandidateContext } from './candidate-batch.js';
import { readCandidate } from './candidate-row.js';
import { byColumn, WEBALL_COLUMNS } from './layout.js';
import type { KnownCandidates } from './known-candidates.js';
import { KNOWN_SENATE_SPECIALS } from './senate.js';

export interface FecImportOptions {
  /** The election year (even); default from the file name, `weball26.txt` → 2026. */
  cycle?: number;
  /** When the file was published; default: how far its reports run (coverageEnd). */
  retrievedAt?: string | Date;
  /** How the file was delivered dates it (HTTP Last-Modified, a mirror's snapshot): used when it carries no date of its own. */
  sourceDate?: string;
  /** FEC bulk files are ASCII in practice; declare `latin1` for one that is not UTF-8. */
  encoding?: SourceEncoding;
  /** CAND_ID → the person and Senate seat other sources know (`fecPersonIndex(legislators-current.yaml)`, the store's persons). */
  known?: KnownCandidates;
  /** State → Senate class of a special election held with the general; default KNOWN_SENATE_SPECIALS of the cycle. */
  senateSpecials?: Readonly<Record<string, number>>;
}

/**
 * `civicgraph import fec-candidates <weballYY.txt>`: the FEC "all candidates" file →
 * persons, parties, offices, the cycle's nomination (`primary`) contests and DECLARED
 * candidacies, one item per row. A row that breaks the layout or names an unknown state, district or party
 * code is rejected with the column and value; so is a second row for a CAND_ID already
 * seen (the first row stands: a re-run drafts the same thing, and the FEC never means
 * two different candidates by one id).
 */
export async function* importFecCandidates(path: string, options: FecImportOptions = {}): AsyncGenerator<DraftItem> {
  const cycle = options.cycle ?? cycleFromName(path);
  if (!Number.isInteger(cycle) || cycle % 2 !== 0 || cycle < 1976 || cycle > 2100)
    throw new ImportFileError(path, 0, `cycle ${cycle} is not an even election year`);
  const file = await readTextFile(path, options.encoding);
  const label = basename(path);
  const ctx: CandidateContext = {
    cycle,
    provenance: fecProvenance(
      label,
      cycle,
      retrievedAt(options.retrievedAt, coverageEnd(file.text), path, options.sourceDate),
    ),
    known: options.known ?? new Map(),
    senateSpecials: options.senateSpecials ?? KNOWN_SENATE_SPECIALS[cycle] ?? {},
  };
  const ids = new Map<string, { line: number; text: string }>();
  const candidacies = new Map<string, { line: number; id: string }>();
  for (const row of parseDelimited(file.text, path, { delimiter: '|', quotes: false })) {
    const at = `${label} line ${row.line}`;
    if (row.fields.length !== WEBALL_COLUMNS.length) {
      yield rejected(at, shapeProblem(row, WEBALL_COLUMNS.length));
      continue;
    }
    const candidate = readCandidate(byColumn(row.fields), cycle);
    if ('reason' in candidate) {
      yield rejected(at, candidate.reason);
      continue;
    }
    const text = row.fields.join('|');
    const first = ids.get(candidate.id);
    if (first !== undefined) {
      yield rejected(
        at,
        `CAND_ID ${candidate.id} is listed twice (first at line ${first.line}${first.text === text ? ', the same row' : ', with other values'}): this row is ignored`,
      );
      continue;
    }
    ids.set(candidate.id, { line: row.line, text });
    const drafts = candidateDrafts(candidate, ctx);
    if ('reason' in drafts) {
      yield rejected(at, drafts.reason);
      continue;
    }
    const twin = candidacies.get(drafts.candidacy);
    if (twin !== undefined) {
      yield rejected(
        at,
        `${drafts.candidacy} was drafted from line ${twin.line} (CAND_ID ${twin.id}): one name twice in one contest, under two CAND_IDs; this row is ignored`,
      );
      continue;
    }
    candidacies.set(drafts.candidacy, { line: row.line, id: candidate.id });
    yield batchItem(at, drafts.batch);
  }
}

/**
 * The file's own date: how far its reports run, the 99th percentile of the rows' CVG_END_DT
 * (coverage end). Not the maximum: a few filings carry coverage dates months in the future
 * (weball26.txt, downloaded in March 2026, has one ending 12/31/2026). Undefined when no
 * row has a coverage end.
 */
function coverageEnd(text: string): string | undefined {
  const column = WEBALL_COLUMNS.indexOf('CVG_END_DT');
  const dates: string[] = [];
  for (const line of text.split('\n')) {
    const date = parseDate((line.split('|')[column] ?? '').trim());
    if (date !== undefined) dates.push(date);
  }
  dates.sort();
  return dates[Math.floor(0.99 * (dates.length - 1))];
}

/** `weball26.txt` → 2026. */
function cycleFromName(path: string): number {
  const yy = /weball(\d{2})\b/i.exec(basename(path))?.[1];
  if (yy === undefined)
    throw new ImportFileError(path, 0, 'cannot tell the cycle from the file name (weballYY.txt): give the cycle');
  return 2000 + Number(yy);
}

/** `provenance:fec-weball26`: the FEC's own filing data, public domain. */
function fecProvenance(file: string, cycle: number, at: string): PlainDraft<'provenance'> {
  const yy = String(cycle % 100).padStart(2, '0');
  return provenanceDraft({
    key: `fec-weball${yy}`,
    source: `FEC all candidates ${cycle} (${file})`,
    url: `https://www.fec.gov/files/bulk-downloads/${cycle}/weball${yy}.zip`,
    publisher: 'Federal Election Commission',
    licence: 'Public domain (U.S. government work)',
    retrievedAt: at,
    method: 'official-filing',
  });
}

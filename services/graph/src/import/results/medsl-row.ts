import { findState, type StateInfo } from '@civicgraph/kit';
import { generalElectionDay, parseDate } from '../shared/index.js';

/** Columns every MEDSL returns file has (the codebook's names); the rest are optional. */
export const REQUIRED_COLUMNS = ['year', 'state_po', 'office', 'candidate', 'votes', 'stage'] as const;

export type Stage = 'general' | 'primary' | 'runoff';

/** Where a row's contest is: what groups rows into one contest. */
export interface ContestKeyFields {
  state: StateInfo;
  year: number;
  stage: Stage;
  /** Upper case, single spaces: `US HOUSE`, `ADAMS COUNTY COURT JUDGE RETENTION`. */
  office: string;
  /** Upper case: `004`, `STATEWIDE`, `AT-LARGE`, `10TH JUDICIAL DISTRICT`, or ''. */
  district: string;
  special: boolean;
}

/** One MEDSL row, checked and typed. */
export interface MedslRow extends ContestKeyFields {
  line: number;
  date: string;
  /** The `dataverse` column (PRESIDENT, SENATE, HOUSE, STATE, LOCAL), '' when absent. */
  dataverse: string;
  magnitude: number | null;
  candidate: string;
  partyDetailed: string;
  partySimplified: string;
  writein: boolean;
  /** `TOTAL`, `IN-PERSON`, `ABSENTEE`, …; '' when the file has no mode column. */
  mode: string;
  votes: number;
  /** null when the file does not say (`NA`, or no such column). */
  unofficial: boolean | null;
}

/** A row that names its contest but has a bad value: it spoils that contest. */
export interface RowProblem {
  line: number;
  key: ContestKeyFields | undefined;
  problem: string;
}

/** The codebook's party_simplified values, plus the `NA` and '' the files also hold. */
const PARTY_SIMPLIFIED = new Set(['DEMOCRAT', 'REPUBLICAN', 'LIBERTARIAN', 'OTHER', 'NONPARTISAN', 'NA', '']);
const STAGES: Readonly<Record<string, Stage>> = { GEN: 'general', PRI: 'primary', RUNOFF: 'runoff', RUN: 'runoff' };

const upper = (s: string | undefined): string => (s ?? '').trim().replace(/\s+/g, ' ').toUpperCase();

function flag(text: string | undefined): boolean | null | undefined {
  const v = upper(text);
  if (v === 'TRUE') return true;
  if (v === 'FALSE') return false;
  if (v === '' || v === 'NA') return null;
  return undefined;
}

/** The contest-locating fields of a row, or why they cannot be read. */
function keyFields(values: Readonly<Record<string, string>>): ContestKeyFields | string {
  const state = findState(values.state_po ?? '');
  if (state === undefined || !/^[A-Za-z]{2}$/.test((values.state_po ?? '').trim()))
    return `state_po "${values.state_po ?? ''}" is not a state's postal code`;
  const yearText = (values.year ?? '').trim();
  if (!/^\d{4}$/.test(yearText)) return `year "${yearText}" is not a four-digit year`;
  const stage = STAGES[upper(values.stage)];
  if (stage === undefined) return `stage "${values.stage ?? ''}" is not GEN, PRI or RUNOFF`;
  const office = upper(values.office);
  if (office === '') return 'office is empty';
  const special = flag(values.special);
  if (special === undefined) return `special "${values.special ?? ''}" is not TRUE or FALSE`;
  return { state, year: Number(yearText), stage, office, district: upper(values.district), special: special ?? false };
}

/** Reads one row: a MedslRow, or the problem with it (tied to its contest when that much is readable). */
export function parseMedslRow(values: Readonly<Record<string, string>>, line: number): MedslRow | RowProblem {
  const key = keyFields(values);
  if (typeof key === 'string') return { line, key: undefined, problem: key };
  const fail = (problem: string): RowProblem => ({ line, key, problem });

  const date = rowDate(values, key);
  if (typeof date !== 'string') return fail(date.problem);
  const votesText = (values.votes ?? '').trim();
  if (!/^\d+$/.test(votesText)) return fail(`votes "${votesText}" is not a whole number of votes`);
  const candidate = (values.candidate ?? '').trim().replace(/\s+/g, ' ');
  if (candidate === '') return fail('candidate is empty');
  const partySimplified = upper(values.party_simplified);
  if (!PARTY_SIMPLIFIED.has(partySimplified)) {
    return fail(
      `party_simplified "${values.party_simplified}" is not one of DEMOCRAT, REPUBLICAN, LIBERTARIAN, OTHER, NONPARTISAN (unknown party)`,
    );
  }
  const magnitudeText = (values.magnitude ?? '').trim();
  if (magnitudeText !== '' && magnitudeText !== 'NA' && !/^[1-9]\d*$/.test(magnitudeText))
    return fail(`magnitude "${magnitudeText}" is not a number of seats`);
  const writein = flag(values.writein);
  if (writein === undefined) return fail(`writein "${values.writein}" is not TRUE or FALSE`);
  const unofficial = flag(values.unofficial);
  if (unofficial === undefined) return fail(`unofficial "${values.unofficial}" is not TRUE or FALSE`);
  // Fields named one by one: a spread of `key` copies every column of every row of large files.
  return {
    state: key.state,
    year: key.year,
    stage: key.stage,
    office: key.office,
    district: key.district,
    special: key.special,
    line,
    date,
    dataverse: upper(values.dataverse),
    magnitude: magnitudeText === '' || magnitudeText === 'NA' ? null : Number(magnitudeText),
    candidate,
    partyDetailed: upper(values.party_detailed),
    partySimplified: partySimplified === 'NA' ? '' : partySimplified,
    writein: writein ?? false,
    mode: upper(values.mode),
    votes: Number(votesText),
    unofficial,
  };
}

/** The row's election day (YYYY-MM-DD), or why it has none. */
function rowDate(values: Readonly<Record<string, string>>, key: ContestKeyFields): string | { problem: string } {
  if (values.date === undefined) {
    // The national MEDSL files have no date column: a general election is on the federal day.
    return key.stage === 'general'
      ? generalElectionDay(key.year)
      : { problem: `the file has no date column, and a ${key.stage} has no fixed day` };
  }
  const date = memoDate(values.date);
  if (date === undefined) return { problem: `date "${values.date}" is not a date (expected YYYY-MM-DD or M/D/YY)` };
  if (Number(date.slice(0, 4)) !== key.year)
    return { problem: `date "${values.date}" is not in the row's year ${key.year}` };
  return date;
}

/** A file holds a few dates in many rows: each distinct text is parsed once. */
const parsedDates = new Map<string, string | undefined>();
function memoDate(text: string): string | undefined {
  if (!parsedDates.has(text)) {
    if (parsedDates.size > 10_000) parsedDates.clear();
    parsedDates.set(text, parseDate(text));
  }
  return parsedDates.get(text);
}

export const isRowProblem = (r: MedslRow | RowProblem): r is RowProblem => 'problem' in r;

import type { DraftItem } from '../../domain/drafts.js';
import { ImportFileError, parseDelimited, shapeProblem } from '../shared/index.js';
import { identifyContest, type ContestIdentity } from './contest-identity.js';
import { contestBatch } from './contest-drafts.js';
import { matchPerson, type KnownPerson } from '../shared/person-match.js';
import { ContestGroups, type ContestRows } from './group-contests.js';
import { isRowProblem, parseMedslRow, REQUIRED_COLUMNS } from './medsl-row.js';
import { resultsSource, type ProvenanceOverrides } from './provenance.js';
import { readResultsText } from './source-file.js';
import { tallyContest, type ModeChoice, type TalliedContest } from './tally.js';

export interface ResultsImportOptions {
  /** Provenance fields to set or override (the importer knows the MEDSL files by name). */
  provenance?: ProvenanceOverrides;
  /** Files split by voting mode: sum the TOTAL rows (default) or the per-mode rows. Never both. */
  modes?: ModeChoice;
  /** In a zip holding several CSV files, the one to read. */
  entry?: string;
  /**
   * The people another source already ties to an office (its holders, its candidates), so
   * a certified candidate is matched to the person they are (person-match.ts). Without it
   * every candidate is a person of the results' own.
   */
  officePeople?: (office: string) => Promise<readonly KnownPerson[]> | readonly KnownPerson[];
  /** Told when a contest is read other than the file literally says (a flag ignored, modes that disagree). */
  onNote?: (at: string, note: string) => void;
  /**
   * States (postal codes, any case) whose rows are skipped: their own fuller returns are
   * imported apart, and the national files spell some of their candidates differently.
   */
  exceptStates?: readonly string[];
  /** Only special elections' rows are read: the file's regular contests come from another source. */
  specialsOnly?: boolean;
}

/**
 * `civicgraph import results <path>`: certified returns in MEDSL's layout (the national
 * state and county files, state precinct files, zipped or not, and the contest-total files
 * derived from them) → one DraftBatch per contest (election, office, contest, the
 * candidacy of each candidate on the ballot, a `result` per choice), or a Rejection saying
 * why a contest or row cannot be used. A bad row spoils
 * only its own contest; a file that cannot be read as a whole (not UTF-8, cut short,
 * missing columns) ends the import with an ImportFileError naming the file and line.
 */
export async function* importResults(path: string, options: ResultsImportOptions = {}): AsyncGenerator<DraftItem> {
  const file = await readResultsText(path, options.entry);
  const source = resultsSource(path, options.provenance);
  const groups = new ContestGroups();
  const except = new Set((options.exceptStates ?? []).map((s) => s.toLowerCase()));
  const keep = (values: Readonly<Record<string, string>>) =>
    !except.has((values.state_po ?? '').trim().toLowerCase()) &&
    (options.specialsOnly !== true || (values.special ?? '').trim().toUpperCase() === 'TRUE');
  for (const item of readRows(file.text, path, groups, keep)) yield item;
  for (const group of groups.contests()) {
    for (const item of contestItems(group, options)) {
      if ('rejected' in item) yield item;
      else {
        const known =
          item.id.office === null || options.officePeople === undefined
            ? []
            : await options.officePeople(item.id.office.slug);
        yield { at: item.at, batch: contestBatch(item.contest, item.id, source, (name) => matchPerson(name, known)) };
      }
    }
  }
}

/** Parses the rows kept into contest groups; yields rejections for rows that name no contest. */
function* readRows(
  text: string,
  path: string,
  groups: ContestGroups,
  keep: (values: Readonly<Record<string, string>>) => boolean,
): Generator<DraftItem> {
  const rows = parseDelimited(text, path);
  const first = rows.next();
  if (first.done === true) throw new ImportFileError(path, 0, 'the file is empty: expected a CSV header row');
  const header = first.value.fields.map((f) => f.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0)
    throw new ImportFileError(
      path,
      first.value.line,
      `the header lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: not a MEDSL returns file`,
    );
  for (const row of rows) {
    if (row.fields.length !== header.length) {
      // A short last row without a line break is a file cut off mid-row, not one bad row.
      if (!row.terminated && row.fields.length < header.length)
        throw new ImportFileError(
          path,
          row.line,
          `the file ends inside this row (${row.fields.length} of ${header.length} fields): it looks truncated`,
        );
      yield { rejected: { at: `line ${row.line}`, reason: `the row has ${shapeProblem(row, header.length)}` } };
      continue;
    }
    const values: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) values[header[i]!] = row.fields[i]!;
    if (!keep(values)) continue;
    const parsed = parseMedslRow(values, row.line);
    const record = row.fields.join('\u001f');
    if (!isRowProblem(parsed)) groups.add(parsed, parsed, record);
    else if (parsed.key !== undefined) groups.add(parsed.key, parsed, record);
    else yield { rejected: { at: `line ${row.line}`, reason: parsed.problem } };
  }
}

type ContestItem =
  { rejected: { at: string; reason: string } } | { at: string; contest: TalliedContest; id: ContestIdentity };

function* contestItems(group: ContestRows, options: ResultsImportOptions): Generator<ContestItem> {
  const at = where(group.key, [...group.rows.map((r) => r.line), ...group.problems.map((p) => p.line)]);
  if (group.problems.length > 0) {
    const reasons = group.problems.slice(0, 5).map((p) => `line ${p.line}: ${p.problem}`);
    if (group.problems.length > 5) reasons.push(`and ${group.problems.length - 5} more bad rows`);
    yield { rejected: { at, reason: `the contest is not imported, a row of it is bad: ${reasons.join('; ')}` } };
    return;
  }
  const tally = tallyContest(group, options.modes ?? 'total');
  if ('problem' in tally) {
    yield { rejected: { at, reason: tally.problem } };
    return;
  }
  for (const contest of tally.contests) {
    const contestAt = where(contest.key, contest.lines, contest.judge);
    const id = identifyContest({
      key: contest.key,
      dataverse: contest.dataverse,
      kind: contest.kind,
      judge: contest.judge,
    });
    if ('problem' in id) {
      yield { rejected: { at: contestAt, reason: id.problem } };
      continue;
    }
    for (const note of contest.notes) options.onNote?.(contestAt, note);
    yield { at: contestAt, contest, id };
  }
}

/** `CO US HOUSE 004 (lines 2–7, 6 rows)`: how a data editor finds the contest in the file. */
function where(key: TalliedContest['key'], lines: readonly number[], judge: string | null = null): string {
  const district = key.district === '' ? '' : ` ${key.district}`;
  const who = judge === null ? '' : ` ${judge}`;
  const min = lines.reduce((a, b) => Math.min(a, b), Infinity);
  const max = lines.reduce((a, b) => Math.max(a, b), 0);
  const span = lines.length === 1 ? `line ${min}` : `lines ${min}–${max}, ${lines.length} rows`;
  return `${key.state.usps.toUpperCase()} ${key.office}${district}${who}${key.special ? ' (special)' : ''} (${span})`;
}

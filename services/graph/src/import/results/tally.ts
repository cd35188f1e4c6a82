import { classifyChoice, type Choice } from './choices.js';
import type { ContestKind } from './contest-identity.js';
import type { ContestRows } from './group-contests.js';
import type { ContestKeyFields, MedslRow } from './medsl-row.js';
import { partySlug, type PartyInfo } from '../shared/index.js';
import { medslParty } from './parties.js';

/** Which rows of a file split by voting mode to sum: the TOTAL rows, or the per-mode rows. */
export type ModeChoice = 'total' | 'parts';

/** One choice's votes in a contest. */
export interface ChoiceTotal {
  choice: Choice;
  /** The `candidate` text of its first row, as the source wrote it. */
  label: string;
  /** Party slug, or '' (none, or a ballot question). */
  party: string;
  /** The party named, when one is. */
  partyInfo: PartyInfo | undefined;
  votes: number;
  /** Every row of the choice is a write-in. */
  writein: boolean;
}

/** A contest ready to draft: its rows summed per choice. */
export interface TalliedContest {
  key: ContestKeyFields;
  kind: ContestKind;
  /** The judge of a retention question; null otherwise. */
  judge: string | null;
  date: string;
  seats: number;
  /** true when every row is marked official; null when the file does not say. */
  certified: boolean | null;
  choices: ChoiceTotal[];
  lines: number[];
  notes: string[];
  dataverse: string;
}

export type TallyOutcome = { contests: TalliedContest[] } | { problem: string };

/**
 * Sums a contest's rows per choice. Files split by voting mode carry each vote twice (the
 * mode rows and a TOTAL row): only one side is summed, TOTAL by default, and a TOTAL that
 * differs from the sum of the modes is noted. Fusion rows (one candidate on two party lines)
 * sum into one choice, under the party of the larger line. Retention groups holding several
 * judges (`DINNEL - YES`, `KIRBY - YES`, …) split into one question per judge.
 */
export function tallyContest(group: ContestRows, modes: ModeChoice): TallyOutcome {
  const rows = group.rows;
  const date = single(rows, (r) => r.date, 'date');
  if (typeof date !== 'string') return date;
  const magnitude = single(rows, (r) => String(r.magnitude ?? ''), 'magnitude');
  if (typeof magnitude !== 'string') return magnitude;
  const notes = [...group.notes];
  const used = pickModes(rows, modes, notes);

  const { byJudge, kinds } = questionsOf(used, notes);
  if (kinds.has('candidate') && (kinds.has('yes') || kinds.has('no')))
    return { problem: 'the contest mixes candidates with YES/NO choices' };
  if (byJudge.size === 0)
    return { problem: 'the contest has no votes for any choice (only undervotes, overvotes or blanks)' };

  const question = kinds.has('yes') || kinds.has('no');
  const retention = question && ([...byJudge.keys()].some((j) => j !== '') || /RETENTION/.test(group.key.office));
  const certified = rows.every((r) => r.unofficial === false)
    ? true
    : rows.some((r) => r.unofficial === true)
      ? false
      : null;
  const contests = [...byJudge.entries()].map(([judge, judgeRows]): TalliedContest => ({
    key: group.key,
    kind: retention ? 'retention' : question ? 'measure' : 'candidate',
    judge: judge === '' ? null : judge,
    date,
    seats: magnitude === '' ? 1 : Number(magnitude),
    certified,
    choices: sumChoices(judgeRows),
    lines: judgeRows.map((r) => r.line),
    notes,
    dataverse: rows[0]!.dataverse,
  }));
  return { contests };
}

/**
 * The rows of each question in a contest (one per judge of a retention group, else one),
 * and the kinds of choices the contest offers besides aggregates. Aggregate rows (write-
 * ins) in a group split by judge belong to no judge's question: they are dropped, noted.
 */
function questionsOf(
  rows: readonly MedslRow[],
  notes: string[],
): { byJudge: Map<string, MedslRow[]>; kinds: Set<Choice['kind']> } {
  const byJudge = new Map<string, MedslRow[]>();
  const kinds = new Set<Choice['kind']>();
  for (const row of rows) {
    const choice = classifyChoice(row.candidate);
    if (choice === undefined) continue;
    if (choice.kind !== 'aggregate') kinds.add(choice.kind);
    const judge = choice.kind === 'yes' || choice.kind === 'no' ? (choice.judge ?? '') : '';
    const list = byJudge.get(judge);
    if (list === undefined) byJudge.set(judge, [row]);
    else list.push(row);
  }
  const loose = byJudge.get('');
  if (
    loose !== undefined &&
    byJudge.size > 1 &&
    loose.every((r) => classifyChoice(r.candidate)?.kind === 'aggregate')
  ) {
    byJudge.delete('');
    notes.push(`${loose.length} write-in row(s) of a retention group naming no judge were left out`);
  }
  return { byJudge, kinds };
}

/** The value every row agrees on, or a problem naming two lines that disagree. */
function single(rows: readonly MedslRow[], get: (r: MedslRow) => string, what: string): string | { problem: string } {
  const first = rows[0]!;
  const other = rows.find((r) => get(r) !== get(first));
  if (other === undefined) return get(first);
  return {
    problem: `rows disagree on the ${what}: "${get(first)}" on line ${first.line}, "${get(other)}" on line ${other.line}`,
  };
}

function pickModes(rows: readonly MedslRow[], modes: ModeChoice, notes: string[]): readonly MedslRow[] {
  const totals = rows.filter((r) => r.mode === 'TOTAL');
  const parts = rows.filter((r) => r.mode !== 'TOTAL');
  if (totals.length === 0 || parts.length === 0) return rows;
  const sum = (rs: readonly MedslRow[]) => {
    const m = new Map<string, number>();
    for (const r of rs) m.set(r.candidate, (m.get(r.candidate) ?? 0) + r.votes);
    return m;
  };
  const t = sum(totals);
  const p = sum(parts);
  const differ = [...new Set([...t.keys(), ...p.keys()])].filter((c) => t.get(c) !== p.get(c));
  if (differ.length > 0) {
    notes.push(
      `TOTAL rows differ from the sum of the other modes for ${differ.slice(0, 3).join(', ')}${differ.length > 3 ? ', …' : ''}: summed ${modes === 'total' ? 'TOTAL' : 'the other modes'} only`,
    );
  }
  return modes === 'total' ? totals : parts;
}

function sumChoices(rows: readonly MedslRow[]): ChoiceTotal[] {
  const byKey = new Map<string, ChoiceTotal & { partyVotes: number }>();
  for (const row of rows) {
    const choice = classifyChoice(row.candidate)!;
    const partyInfo = choice.kind === 'candidate' ? medslParty(row.partyDetailed, row.partySimplified) : undefined;
    const party = partyInfo === undefined ? '' : partySlug(partyInfo);
    const seen = byKey.get(choice.key);
    if (seen === undefined) {
      byKey.set(choice.key, {
        choice,
        label: row.candidate,
        party,
        partyInfo,
        votes: row.votes,
        partyVotes: row.votes,
        writein: row.writein,
      });
      continue;
    }
    seen.votes += row.votes;
    seen.writein &&= row.writein;
    if (row.votes > seen.partyVotes && party !== '') Object.assign(seen, { party, partyInfo, partyVotes: row.votes });
  }
  return [...byKey.values()].map(({ partyVotes: _, ...c }) => c);
}

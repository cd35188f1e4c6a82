import type { ContestKeyFields, MedslRow, RowProblem } from './medsl-row.js';

/** The rows of one contest as the file has it, and the problems that spoil it. */
export interface ContestRows {
  key: ContestKeyFields;
  rows: MedslRow[];
  problems: RowProblem[];
  /** Why the importer read the contest other than the file says (a special flag ignored). */
  notes: string[];
}

const groupKey = (k: ContestKeyFields, special = k.special): string =>
  [k.state.usps, k.year, k.stage, k.office, k.district, special].join('|');

/**
 * Gathers rows into contests: same state, year, stage, office, district and special flag.
 * Dates and votes are checked per contest later, so one bad row spoils its own contest and
 * no other; the file is small enough (tens of thousands of rows) to hold.
 */
export class ContestGroups {
  private readonly groups = new Map<string, ContestRows>();

  private readonly seen = new Map<string, number>();

  /**
   * Adds a row, or a bad row that names its contest. `record` is the row's raw text: a row
   * repeating an earlier one field for field is a problem (its votes would count twice),
   * unlike two rows for one candidate that differ (fusion lines, split reporting units).
   */
  add(key: ContestKeyFields, row: MedslRow | RowProblem, record?: string): void {
    const id = groupKey(key);
    let group = this.groups.get(id);
    if (group === undefined) {
      const { state, year, stage, office, district, special } = key;
      group = { key: { state, year, stage, office, district, special }, rows: [], problems: [], notes: [] };
      this.groups.set(id, group);
    }
    const first = record === undefined ? undefined : this.seen.get(record);
    if (first !== undefined)
      group.problems.push({
        line: row.line,
        key,
        problem: `repeats line ${first} field for field (its votes would count twice)`,
      });
    else if ('problem' in row) group.problems.push(row);
    else group.rows.push(row);
    if (record !== undefined && first === undefined) this.seen.set(record, row.line);
  }

  /** The contests, in the order the file first names them, with special flags resolved. */
  contests(): ContestRows[] {
    return [...this.groups.values()].map((g) => this.resolveSpecial(g));
  }

  /**
   * Every US House seat is up in each November of an even year, so a general-election House
   * contest flagged special with no regular contest for the same district beside it is the
   * regular election, mis-flagged: MEDSL flags Colorado's CD-4 November 2024 race special,
   * while the CD-4 special (to replace Ken Buck) was held on 25 June 2024. It is read as the
   * regular general election, with a note; inventing a special contest from the flag would
   * put a second, phantom CD-4 contest on November ballots. Genuine specials (a regular
   * contest for the same seat beside them, as Nebraska's 2024 Senate pair) keep the flag.
   */
  private resolveSpecial(g: ContestRows): ContestRows {
    const k = g.key;
    const lone =
      k.special &&
      k.stage === 'general' &&
      k.office === 'US HOUSE' &&
      k.year % 2 === 0 &&
      !this.groups.has(groupKey(k, false));
    if (!lone) return g;
    return {
      ...g,
      key: { ...k, special: false },
      notes: [
        ...g.notes,
        `special=TRUE ignored: a November US HOUSE ${k.district} contest with no regular contest beside it is the regular election (MEDSL mis-flag)`,
      ],
    };
  }
}

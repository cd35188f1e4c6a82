import { InvalidParameterError } from '@civicgraph/kit';
import { BALLOT_ACCESSES, FILING_STATUSES, type BallotAccess, type FilingStatus } from '../model/nodes.js';

/**
 * The candidacy state machines of DESIGN. filingStatus: DECLARED → FILED → QUALIFIED;
 * any → WITHDRAWN; FILED/QUALIFIED → DISQUALIFIED. ballotAccess: PENDING → ON_BALLOT |
 * WRITE_IN | DENIED; ON_BALLOT → REMOVED once the filing is WITHDRAWN. A status never
 * known before (null) may start at any value; staying put is not a move. Steps are not
 * skipped: DECLARED → QUALIFIED must pass through FILED.
 */
export const FILING_MOVES: Readonly<Record<FilingStatus, readonly FilingStatus[]>> = Object.freeze({
  DECLARED: ['FILED', 'WITHDRAWN'],
  FILED: ['QUALIFIED', 'WITHDRAWN', 'DISQUALIFIED'],
  QUALIFIED: ['WITHDRAWN', 'DISQUALIFIED'],
  DISQUALIFIED: ['WITHDRAWN'],
  WITHDRAWN: [],
});

export const BALLOT_MOVES: Readonly<Record<BallotAccess, readonly BallotAccess[]>> = Object.freeze({
  PENDING: ['ON_BALLOT', 'WRITE_IN', 'DENIED'],
  ON_BALLOT: ['REMOVED'],
  WRITE_IN: [],
  DENIED: [],
  REMOVED: [],
});

/** Ballot moves allowed only when the candidacy's filing status (after the change) is WITHDRAWN. */
const AFTER_WITHDRAWAL: ReadonlySet<string> = new Set(['ON_BALLOT>REMOVED']);

export function isFilingStatus(v: unknown): v is FilingStatus {
  return typeof v === 'string' && (FILING_STATUSES as readonly string[]).includes(v);
}

export function isBallotAccess(v: unknown): v is BallotAccess {
  return typeof v === 'string' && (BALLOT_ACCESSES as readonly string[]).includes(v);
}

/** Whether filingStatus may go from `from` to `to`. */
export function isFilingMove(from: FilingStatus | null, to: FilingStatus | null): boolean {
  if (from === to) return true;
  if (to === null) return false;
  return from === null || FILING_MOVES[from].includes(to);
}

/** Whether ballotAccess may go from `from` to `to`, given the filing status after the change. */
export function isBallotMove(
  from: BallotAccess | null,
  to: BallotAccess | null,
  filingStatus: FilingStatus | null,
): boolean {
  if (from === to) return true;
  if (to === null) return false;
  if (from === null) return true;
  if (!BALLOT_MOVES[from].includes(to)) return false;
  return !AFTER_WITHDRAWAL.has(`${from}>${to}`) || filingStatus === 'WITHDRAWN';
}

/** Throws InvalidParameterError (field `filing_status`) naming both values when the move is illegal. */
export function assertFilingMove(from: FilingStatus | null, to: FilingStatus | null): void {
  if (!isFilingStatusOrNull(to))
    throw new InvalidParameterError(
      'filing_status',
      `filing_status "${String(to)}" is not one of ${FILING_STATUSES.join(', ')}`,
    );
  if (isFilingMove(from, to)) return;
  throw new InvalidParameterError(
    'filing_status',
    `filing_status cannot move from ${show(from)} to ${show(to)}${filingHint(from, to)}`,
  );
}

/** Throws InvalidParameterError (field `ballot_access`) naming both values when the move is illegal. */
export function assertBallotMove(
  from: BallotAccess | null,
  to: BallotAccess | null,
  filingStatus: FilingStatus | null,
): void {
  if (!isBallotAccessOrNull(to))
    throw new InvalidParameterError(
      'ballot_access',
      `ballot_access "${String(to)}" is not one of ${BALLOT_ACCESSES.join(', ')}`,
    );
  if (isBallotMove(from, to, filingStatus)) return;
  const needsWithdrawal = from !== null && to !== null && AFTER_WITHDRAWAL.has(`${from}>${to}`);
  const why = needsWithdrawal
    ? ` while filing_status is ${show(filingStatus)} (only after withdrawal: WITHDRAWN)`
    : ballotHint(from, to);
  throw new InvalidParameterError('ballot_access', `ballot_access cannot move from ${show(from)} to ${show(to)}${why}`);
}

function isFilingStatusOrNull(v: unknown): v is FilingStatus | null {
  return v === null || isFilingStatus(v);
}

function isBallotAccessOrNull(v: unknown): v is BallotAccess | null {
  return v === null || isBallotAccess(v);
}

const show = (v: string | null): string => v ?? 'null (unknown)';

function filingHint(from: FilingStatus | null, to: FilingStatus | null): string {
  return hint(from, to, from === null ? [] : FILING_MOVES[from]);
}

function ballotHint(from: BallotAccess | null, to: BallotAccess | null): string {
  return hint(from, to, from === null ? [] : BALLOT_MOVES[from]);
}

/** Says what the caller could do instead: why null is refused, or where `from` may go. */
function hint(from: string | null, to: string | null, next: readonly string[]): string {
  if (to === null) return ' (a known status cannot become unknown)';
  return next.length === 0 ? ` (${String(from)} is final)` : ` (from ${String(from)}: ${next.join(', ')})`;
}

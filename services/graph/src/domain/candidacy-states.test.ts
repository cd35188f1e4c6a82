import { InvalidParameterError } from '@civicgraph/kit';
import { describe, expect, test } from 'vitest';
import { BALLOT_ACCESSES, FILING_STATUSES, type BallotAccess, type FilingStatus } from '../model/nodes.js';
import { assertBallotMove, assertFilingMove } from './candidacy-states.js';

/**
 * Every legal move written out by hand from DESIGN (not derived from the module's tables,
 * so a wrong table fails here). Everything not listed, except staying put, is illegal.
 */
const LEGAL_FILING: [FilingStatus | null, FilingStatus][] = [
  ...FILING_STATUSES.map((s): [null, FilingStatus] => [null, s]),
  ['DECLARED', 'FILED'],
  ['FILED', 'QUALIFIED'],
  ['DECLARED', 'WITHDRAWN'],
  ['FILED', 'WITHDRAWN'],
  ['QUALIFIED', 'WITHDRAWN'],
  ['DISQUALIFIED', 'WITHDRAWN'],
  ['FILED', 'DISQUALIFIED'],
  ['QUALIFIED', 'DISQUALIFIED'],
];

const LEGAL_BALLOT: [BallotAccess | null, BallotAccess][] = [
  ...BALLOT_ACCESSES.map((s): [null, BallotAccess] => [null, s]),
  ['PENDING', 'ON_BALLOT'],
  ['PENDING', 'WRITE_IN'],
  ['PENDING', 'DENIED'],
];

const FILING_VALUES = [null, ...FILING_STATUSES];
const BALLOT_VALUES = [null, ...BALLOT_ACCESSES];
const pairs = <T>(values: T[]): [T, T][] => values.flatMap((a) => values.map((b): [T, T] => [a, b]));
const isListed = <T>(list: [T, T][], from: T, to: T): boolean => list.some(([f, t]) => f === from && t === to);

const ILLEGAL_FILING = pairs(FILING_VALUES).filter(([f, t]) => f !== t && !isListed(LEGAL_FILING, f, t));
const ILLEGAL_BALLOT = pairs(BALLOT_VALUES).filter(
  ([f, t]) => f !== t && !isListed(LEGAL_BALLOT, f, t) && !(f === 'ON_BALLOT' && t === 'REMOVED'),
);

function caught(fn: () => void): InvalidParameterError {
  try {
    fn();
  } catch (err) {
    if (err instanceof InvalidParameterError) return err;
    throw err;
  }
  throw new Error('expected an InvalidParameterError, nothing was thrown');
}

describe('filingStatus moves', () => {
  test.each(LEGAL_FILING)('%s → %s is allowed', (from, to) => {
    expect(() => assertFilingMove(from, to)).not.toThrow();
  });

  test.each(FILING_VALUES.map((v) => [v]))('%s → itself is no move, allowed', (v) => {
    expect(() => assertFilingMove(v, v)).not.toThrow();
  });

  test('the illegal table is the rest of the square (6×6 minus 6 stays minus the legal moves)', () => {
    expect(ILLEGAL_FILING).toHaveLength(36 - 6 - LEGAL_FILING.length);
  });

  test.each(ILLEGAL_FILING)('%s → %s is refused, naming filing_status and both values', (from, to) => {
    const err = caught(() => assertFilingMove(from, to));
    expect(err.field).toBe('filing_status');
    expect(err.message).toContain('filing_status');
    expect(err.message).toContain(`from ${from ?? 'null'}`);
    expect(err.message).toContain(`to ${to ?? 'null'}`);
  });

  test('a value outside the vocabulary is refused naming it', () => {
    const err = caught(() => assertFilingMove('FILED', 'ELECTED' as FilingStatus));
    expect(err.field).toBe('filing_status');
    expect(err.message).toContain('ELECTED');
  });
});

describe('ballotAccess moves', () => {
  test.each(LEGAL_BALLOT)('%s → %s is allowed', (from, to) => {
    expect(() => assertBallotMove(from, to, null)).not.toThrow();
  });

  test.each(BALLOT_VALUES.map((v) => [v]))('%s → itself is no move, allowed', (v) => {
    expect(() => assertBallotMove(v, v, 'QUALIFIED')).not.toThrow();
  });

  test('ON_BALLOT → REMOVED is allowed after withdrawal', () => {
    expect(() => assertBallotMove('ON_BALLOT', 'REMOVED', 'WITHDRAWN')).not.toThrow();
  });

  test.each(FILING_VALUES.filter((s) => s !== 'WITHDRAWN').map((s) => [s]))(
    'ON_BALLOT → REMOVED is refused while filing_status is %s',
    (filing) => {
      const err = caught(() => assertBallotMove('ON_BALLOT', 'REMOVED', filing));
      expect(err.field).toBe('ballot_access');
      expect(err.message).toMatch(/from ON_BALLOT to REMOVED/);
      expect(err.message).toMatch(/WITHDRAWN/);
    },
  );

  test('the illegal table is the rest of the square', () => {
    expect(ILLEGAL_BALLOT).toHaveLength(36 - 6 - LEGAL_BALLOT.length - 1);
  });

  test.each(ILLEGAL_BALLOT)('%s → %s is refused, naming ballot_access and both values', (from, to) => {
    // Even after withdrawal: withdrawal opens ON_BALLOT → REMOVED only.
    const err = caught(() => assertBallotMove(from, to, 'WITHDRAWN'));
    expect(err.field).toBe('ballot_access');
    expect(err.message).toContain('ballot_access');
    expect(err.message).toContain(`from ${from ?? 'null'}`);
    expect(err.message).toContain(`to ${to ?? 'null'}`);
  });
});

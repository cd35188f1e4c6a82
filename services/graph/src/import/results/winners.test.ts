import { describe, expect, it } from 'vitest';
import { candidateWinners, MAJORITY, passRule, questionOutcome, UNKNOWN_RULE } from './winners.js';

const t = (key: string, votes: number, aggregate = false) => ({ key, votes, aggregate });

describe('candidateWinners', () => {
  it('gives the seat to the most votes', () => {
    expect(Object.fromEntries(candidateWinners([t('a', 10), t('b', 30), t('c', 20)], 1))).toEqual({
      a: false,
      b: true,
      c: false,
    });
  });

  it('fills a multi-seat contest with the top N', () => {
    expect(Object.fromEntries(candidateWinners([t('a', 10), t('b', 30), t('c', 20)], 2))).toEqual({
      a: false,
      b: true,
      c: true,
    });
  });

  it('leaves a tie across the last seat undetermined, and the clear winners decided', () => {
    expect(Object.fromEntries(candidateWinners([t('a', 20), t('b', 30), t('c', 20)], 2))).toEqual({
      a: null,
      b: true,
      c: null,
    });
  });

  it('decides nothing when write-ins lead (the winner hides inside them) or nobody voted', () => {
    expect([...candidateWinners([t('write-in', 50, true), t('a', 10)], 1).values()]).toEqual([null, null]);
    expect([...candidateWinners([t('a', 0), t('b', 0)], 1).values()]).toEqual([null, null]);
  });

  it('lets an uncontested candidate win', () => {
    expect(Object.fromEntries(candidateWinners([t('a', 7440)], 1))).toEqual({ a: true });
  });
});

describe('ballot questions', () => {
  it('a majority rule passes above half, and a tie fails', () => {
    expect(questionOutcome(51, 49, MAJORITY)).toEqual({ yes: true, no: false });
    expect(questionOutcome(50, 50, MAJORITY)).toEqual({ yes: false, no: true });
  });

  it('an unknown threshold still settles a question that got half or less', () => {
    expect(questionOutcome(49, 51, UNKNOWN_RULE)).toEqual({ yes: false, no: true });
    expect(questionOutcome(70, 30, UNKNOWN_RULE)).toEqual({ yes: null, no: null });
  });

  it('a Colorado constitutional amendment needs 55 %; between 50 and 55 it is undetermined (a repeal needs only a majority)', () => {
    const rule = passRule('co', 'AMENDMENT 79 (CONSTITUTIONAL)', false);
    expect(questionOutcome(62, 38, rule)).toEqual({ yes: true, no: false });
    expect(questionOutcome(53, 47, rule)).toEqual({ yes: null, no: null });
    expect(questionOutcome(49, 51, rule)).toEqual({ yes: false, no: true });
  });

  it('Colorado statutes and retentions pass with a majority; other states are not assumed', () => {
    expect(questionOutcome(52, 48, passRule('co', 'PROPOSITION 127 (STATUTORY)', false)).yes).toBe(true);
    expect(questionOutcome(52, 48, passRule('co', 'COUNTY COURT JUDGE RETENTION', true)).yes).toBe(true);
    expect(questionOutcome(52, 48, passRule('fl', 'AMENDMENT 4', false)).yes).toBeNull();
  });

  it('no votes, no outcome', () => {
    expect(questionOutcome(0, 0, MAJORITY)).toEqual({ yes: null, no: null });
  });
});

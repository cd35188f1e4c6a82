import { describe, expect, it } from 'vitest';
import { QueryTooComplexError } from '@civicgraph/kit';
import type { Clause } from './ast.js';
import { Meter } from './meter.js';

const budget = { rowsExamined: 10, rowsReturned: 3, timeMs: 1_000 };
const match: Clause = { kind: 'match', optional: false, patterns: [], where: undefined, at: { line: 2, column: 5 } };

describe('Meter', () => {
  it('refuses past the rows a plan may examine, naming the clause running', () => {
    const meter = new Meter(budget, () => 0);
    meter.enter(match);
    meter.examine(10);
    expect(() => meter.examine()).toThrow(QueryTooComplexError);
    expect(() => meter.examine()).toThrow('in MATCH at line 2, column 5, examined more than 10 rows');
  });

  it('refuses once the time is spent, however few rows', () => {
    let now = 0;
    const meter = new Meter(budget, () => now);
    meter.examine();
    now = 1_001;
    expect(() => meter.examine()).toThrow('ran longer than 1 s');
  });

  it('refuses an answer longer than the plan returns', () => {
    const meter = new Meter(budget, () => 0);
    expect(() => meter.returned(3)).not.toThrow();
    expect(() => meter.returned(4)).toThrow('returns more than 3 rows');
  });
});

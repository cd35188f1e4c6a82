import { describe, expect, it } from 'vitest';
import { QueryTooComplexError } from '@civicgraph/kit';
import type { Clause } from './ast.js';
import { Meter } from './meter.js';

const budget = { rowsExamined: 100_000, rowsReturned: 3, timeMs: 1_000, memoryMb: 1 };
const match: Clause = { kind: 'match', optional: false, patterns: [], where: undefined, at: { line: 2, column: 5 } };

describe('Meter', () => {
  it('refuses past the rows a plan may examine, naming the clause running', () => {
    const meter = new Meter(
      budget,
      () => 0,
      () => 0,
    );
    meter.enter(match);
    meter.examine(100_000);
    expect(() => meter.examine()).toThrow(QueryTooComplexError);
    expect(() => meter.examine()).toThrow('in MATCH at line 2, column 5, examined more than 100,000 rows');
  });

  it('refuses once the time is spent, reading the clock on the first row and every 1,024 after', () => {
    let now = 0;
    const meter = new Meter(
      budget,
      () => now,
      () => 0,
    );
    meter.examine();
    now = 1_001;
    expect(() => meter.examine(1_023)).not.toThrow();
    expect(() => meter.examine()).toThrow('ran longer than 1 s');
  });

  it('refuses on the first row when the time is already spent', () => {
    let now = 0;
    const meter = new Meter(
      budget,
      () => now,
      () => 0,
    );
    now = 1_001;
    expect(() => meter.examine()).toThrow('ran longer than 1 s');
  });

  it('refuses an answer longer than the plan returns', () => {
    const meter = new Meter(
      budget,
      () => 0,
      () => 0,
    );
    expect(() => meter.returned(3)).not.toThrow();
    expect(() => meter.returned(4)).toThrow('returns more than 3 rows');
  });

  it('refuses once the heap has grown past the plan memory, reading it every 50,000 rows', () => {
    let heap = 0;
    const meter = new Meter(
      budget,
      () => 0,
      () => heap,
    );
    heap = 2 ** 20 + 1;
    expect(() => meter.examine(49_999)).not.toThrow();
    expect(() => meter.examine()).toThrow('held more than 1 MB');
  });
});

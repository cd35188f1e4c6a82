import { QueryTooComplexError, type CypherBudget } from '@civicgraph/kit';
import { clauseName, where, type Clause } from './ast.js';

/**
 * Rows examined between two readings of the heap: a reading costs up to milliseconds in a
 * process holding the store's gigabytes, and this many rows grow the heap by a small part
 * of the smallest plan's memory budget.
 */
const HEAP_CHECK_ROWS = 50_000;
/**
 * Rows examined between two readings of the clock: the evaluator counts rows one at a time,
 * and reading the clock for each would cost more than examining the row.
 */
const CLOCK_CHECK_ROWS = 1_024;

/**
 * A query's budget, spent as it runs: every node, relationship and intermediate row a
 * clause examines, the clock, and the heap it grows. Past any, the query stops with
 * `query_too_complex` naming the clause.
 */
export class Meter {
  examined = 0;
  private readonly deadline: number;
  private readonly heapStart: number;
  private nextHeapCheck = HEAP_CHECK_ROWS;
  private nextClockCheck = 0;
  private clause: Clause | undefined;

  constructor(
    readonly budget: CypherBudget,
    private readonly now: () => number = Date.now,
    private readonly heapUsed: () => number = () => process.memoryUsage().heapUsed,
  ) {
    this.deadline = now() + budget.timeMs;
    this.heapStart = heapUsed();
  }

  /** The clause now running (named by a refusal). */
  enter(clause: Clause): void {
    this.clause = clause;
  }

  /**
   * Counts `n` rows examined; refuses once past the budget, or past the deadline (read on
   * the first row and every CLOCK_CHECK_ROWS after) or the memory (every HEAP_CHECK_ROWS).
   */
  examine(n = 1): void {
    this.examined += n;
    if (this.examined > this.budget.rowsExamined)
      throw this.refusal(`examined more than ${this.budget.rowsExamined.toLocaleString('en-US')} rows`);
    if (this.examined < this.nextClockCheck && this.examined < this.nextHeapCheck) return;
    if (this.examined >= this.nextClockCheck) {
      this.nextClockCheck = this.examined + CLOCK_CHECK_ROWS;
      if (this.now() > this.deadline) throw this.refusal(`ran longer than ${this.budget.timeMs / 1000} s`);
    }
    if (this.examined >= this.nextHeapCheck) {
      this.nextHeapCheck = this.examined + HEAP_CHECK_ROWS;
      // The heap is the process's, so other work counts too: a refusal errs on the safe side.
      if (this.heapUsed() - this.heapStart > this.budget.memoryMb * 2 ** 20)
        throw this.refusal(`held more than ${this.budget.memoryMb} MB`);
    }
  }

  /** Refuses an answer of more rows than the budget returns. */
  returned(n: number): void {
    if (n > this.budget.rowsReturned)
      throw this.refusal(
        `returns more than ${this.budget.rowsReturned.toLocaleString('en-US')} rows; add LIMIT or aggregate`,
      );
  }

  private refusal(what: string): QueryTooComplexError {
    const c = this.clause;
    const named = c === undefined ? 'The query' : `The query, in ${clauseName(c)} at ${where(c.at)},`;
    return new QueryTooComplexError(
      `${named} ${what}, this key's plan's budget. Narrow it (labels, properties, LIMIT).`,
      {
        field: 'query',
      },
    );
  }
}

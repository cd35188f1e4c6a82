import { aql, join, literal, type AqlLiteral, type AqlQuery } from 'arangojs/aql';

/**
 * The building blocks every part of the Cypher → AQL compiler writes with. Query text is
 * only ever fixed fragments written in these files and variable names made here (`v3`,
 * `t12`: a prefix and a counter); every value, from the caller or not, goes in through
 * arangojs's `aql` template as a bind variable.
 */

/** Fresh AQL variable names for one compiled query. */
export class Names {
  private next = 0;

  /** `v` for Cypher variables, `t` for temporaries, `e`/`p` for edges and paths… */
  fresh(prefix: 'v' | 't' | 'e' | 'p' | 'g' | 'o' | 'x' | 'i' | 'k'): AqlLiteral {
    return literal(`${prefix}${this.next++}`);
  }
}

/**
 * A sequence of AQL statements (FOR, LET, FILTER, COLLECT, SORT, LIMIT) being written: the
 * top level of the query or the body of a subquery. Every compound expression is bound to
 * a LET of its own and named by its variable, so an expression used twice by a rule (null
 * checks, type dispatch) is written and evaluated once, and the text grows linearly with
 * the Cypher. AQL evaluates LETs eagerly, as the evaluator evaluates every operand
 * (expressions.ts: AND and OR evaluate both sides; there is no CASE), so hoisting changes
 * no answer.
 */
export class Ops {
  private readonly parts: AqlQuery[] = [];

  constructor(readonly names: Names) {}

  push(q: AqlQuery): void {
    this.parts.push(q);
  }

  /** `LET tN = value`; the reference to tN. */
  let(value: AqlQuery): AqlQuery {
    const v = this.names.fresh('t');
    this.parts.push(aql`LET ${v} = ${value}`);
    return ref(v);
  }

  /** A new, empty sequence sharing the names (a subquery's body). */
  child(): Ops {
    return new Ops(this.names);
  }

  /** The statements written so far, removed from this sequence (to become a subquery's body). */
  drain(): AqlQuery {
    const q = this.toQuery();
    this.parts.length = 0;
    return q;
  }

  get empty(): boolean {
    return this.parts.length === 0;
  }

  toQuery(): AqlQuery {
    return join(this.parts, '\n');
  }
}

/** A variable name as an expression. */
export function ref(v: AqlLiteral): AqlQuery {
  return aql`${v}`;
}

/**
 * Errors raised inside the query. AQL's FAIL() aborts the query with its reason; the
 * executor (store/arango/arango-cypher.ts) reads the prefix back into the same error the
 * evaluator throws: `invalid_parameter` for what the evaluator also refuses while running
 * (a property of a number, a division by zero of integers), `unsupported_cypher` for a
 * value ArangoDB cannot represent the way openCypher does (an infinity).
 */
export const FAIL_PREFIX = { invalid: 'civicgraph-invalid:', unsupported: 'civicgraph-unsupported:' } as const;

export function fail(kind: keyof typeof FAIL_PREFIX, message: string): AqlQuery {
  return aql`FAIL(${FAIL_PREFIX[kind] + message})`;
}

import {
  InvalidParameterError,
  QueryTooComplexError,
  UnsupportedCypherError,
  type CypherBudget,
} from '@civicgraph/kit';
import type { Database } from 'arangojs';
import { isArangoError } from 'arangojs/errors';
import type { Query } from '../../cypher/ast.js';
import { compileCypher } from '../../cypher/aql/compile.js';
import { decodeValue } from '../../cypher/aql/decode.js';
import { FAIL_PREFIX } from '../../cypher/aql/ops.js';
import type { StoreCypherAnswer, StoreCypherRequest } from '../../cypher/store-cypher.js';
import type { ArangoCollections } from './statements-aql.js';

/** ArangoDB's error numbers the executor reads (arangod's errors.dat). */
const ERROR = { queryKilled: 1500, failCalled: 1569, resourceLimit: 32 } as const;

/**
 * Runs a Cypher query on ArangoDB as the one AQL query it compiles to (cypher/aql), within
 * the plan's budget:
 * - rows returned: the query returns at most one row more than the budget (a final LIMIT),
 *   and runCypher refuses an answer over it, as the evaluator's meter does;
 * - time and memory: the server's own limits on the query, `maxRuntime` and `memoryLimit`,
 *   which stop it where it is; over them, `query_too_complex`;
 * - rows examined: the server counts the documents a query reads (`scannedFull` and
 *   `scannedIndex`, collection scans and index lookups alike, traversals included), but
 *   only tells the count when the query has finished, and AQL has no counter a query can
 *   stop itself by. The count is checked then: an answer that read more than the budget is
 *   refused, and while it runs the time and memory limits are what bound the server's
 *   work. (`fullCount` counts rows before the last LIMIT, not rows read; the profile's
 *   per-node counts come at the same moment as these, at a cost.) The refusal names the
 *   query, not a clause: the server does not say which loop read what.
 */
export async function runArangoCypher(
  db: Database,
  c: ArangoCollections,
  query: Query,
  req: StoreCypherRequest,
): Promise<StoreCypherAnswer> {
  const { budget } = req;
  const compiled = compileCypher(query, {
    nodes: c.nodes,
    edges: c.edges,
    principal: req.principal,
    minConfidence: req.minConfidence,
    parameters: req.parameters,
    rowCap: budget.rowsReturned + 1,
  });
  let rows: unknown[][];
  let examined: number;
  try {
    const cursor = await db.query<unknown[]>(compiled.query, {
      maxRuntime: budget.timeMs / 1000,
      memoryLimit: budget.memoryMb * 2 ** 20,
      batchSize: 1000,
    });
    rows = await cursor.all();
    const stats = cursor.extra.stats;
    examined = (stats?.scannedFull ?? 0) + (stats?.scannedIndex ?? 0);
  } catch (err) {
    throw translate(err, budget);
  }
  if (examined > budget.rowsExamined)
    throw new QueryTooComplexError(
      `The query examined more than ${budget.rowsExamined.toLocaleString('en-US')} rows, this key's plan's budget. Narrow it (labels, properties, LIMIT).`,
      { field: 'query' },
    );
  return { columns: compiled.columns, rows: rows.map((r) => r.map(decodeValue)), rowsExamined: examined };
}

/** The server's refusals as the errors the evaluator gives for the same cause; anything else as it is. */
export function translate(err: unknown, budget: CypherBudget): unknown {
  if (!isArangoError(err)) return err;
  if (err.errorNum === ERROR.failCalled) {
    for (const [kind, prefix] of Object.entries(FAIL_PREFIX)) {
      const at = err.message.indexOf(prefix);
      if (at < 0) continue;
      const message = err.message.slice(at + prefix.length).replace(/\) called$/, '');
      return kind === 'invalid'
        ? new InvalidParameterError('query', message, { cause: err })
        : new UnsupportedCypherError(`${message} is not supported on this deployment's store.`, {
            field: 'query',
            cause: err,
          });
    }
  }
  if (err.errorNum === ERROR.queryKilled)
    return new QueryTooComplexError(
      `The query ran longer than ${budget.timeMs / 1000} s, this key's plan's budget. Narrow it (labels, properties, LIMIT).`,
      { field: 'query', cause: err },
    );
  if (err.errorNum === ERROR.resourceLimit)
    return new QueryTooComplexError(
      `The query held more than ${budget.memoryMb} MB, this key's plan's budget. Narrow it (labels, properties, LIMIT).`,
      { field: 'query', cause: err },
    );
  return err;
}

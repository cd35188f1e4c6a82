import type { CypherBudget } from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { Query } from './ast.js';
import type { Value } from './values.js';

/**
 * What a GraphStore that runs Cypher itself (GraphStore.cypher: ArangoDB, which compiles
 * it to AQL) is asked and answers. Parsing, the contact refusal and the shaping of the
 * answer stay in runCypher (execute.ts), so both executors share them; the store applies
 * the key's scope and min_confidence, and the plan's budget, inside its own query.
 */
export interface StoreCypherRequest {
  principal: Principal;
  parameters: Readonly<Record<string, unknown>>;
  minConfidence: number;
  budget: CypherBudget;
}

export interface StoreCypherAnswer {
  columns: string[];
  /** At most `budget.rowsReturned + 1` rows: one more tells runCypher the answer is over the budget. */
  rows: Value[][];
  /** Documents the store read to answer (its own count). */
  rowsExamined: number;
}

export type StoreCypher = (query: Query, request: StoreCypherRequest) => Promise<StoreCypherAnswer>;

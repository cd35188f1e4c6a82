import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { aql, join, type AqlQuery } from 'arangojs/aql';
import type { DocumentCollection, EdgeCollection } from 'arangojs/collections';
import type { Query } from '../ast.js';
import { compileExpr, type Binding, type ExprContext } from './expression.js';
import { compileMatch } from './match.js';
import { Names, Ops, ref } from './ops.js';
import { compileProjection } from './projection.js';
import { visibilityOf } from './visibility.js';

export interface CompileInput {
  nodes: DocumentCollection;
  edges: EdgeCollection;
  principal: Principal;
  minConfidence: number;
  parameters: Readonly<Record<string, unknown>>;
  /** At most this many rows come back: the plan's rows-returned budget plus one, to tell an answer over it. */
  rowCap: number;
}

export interface CompiledCypher {
  query: AqlQuery;
  columns: string[];
}

/**
 * A parsed Cypher query (the subset build-ast.ts accepts) as one AQL query: the clauses in
 * order as one pipeline of loops over the rows so far, starting from one empty row as the
 * evaluator does, ending in one list per answer row. The caller's scope is a filter on
 * every node the query binds (visibility.ts); nothing the caller wrote, not a value, a
 * parameter, a name or a number, is written into the text: values are bind variables,
 * property keys come from the schema's table, variable names are made by the compiler.
 */
export function compileCypher(query: Query, input: CompileInput): CompiledCypher {
  const ops = new Ops(new Names());
  const expr: ExprContext = { params: input.parameters };
  const env = {
    nodes: input.nodes,
    edges: input.edges,
    visibility: visibilityOf(input.principal, input.minConfidence),
    expr,
  };
  let scope = new Map<string, Binding>();
  ops.push(aql`FOR ${ops.names.fresh('o')} IN [null]`);
  for (const clause of query.clauses) {
    switch (clause.kind) {
      case 'match':
        compileMatch(clause, ops, scope, env);
        break;
      case 'unwind': {
        // A list gives a row per item, null none, any other value one row (as the evaluator, and Neo4j).
        const v = compileExpr(clause.expr, ops, scope, expr);
        const item = ops.names.fresh('v');
        ops.push(aql`FOR ${item} IN (IS_ARRAY(${v}) ? ${v} : (${v} == null ? [] : [${v}]))`);
        scope = new Map(scope).set(clause.as, { sort: 'value', ref: ref(item) });
        break;
      }
      case 'with': {
        scope = compileProjection(clause.projection, ops, scope, expr).scope;
        if (clause.where !== undefined) {
          // The evaluator keeps rows whose condition is true, without insisting it be a boolean.
          ops.push(aql`FILTER ${compileExpr(clause.where, ops, scope, expr)} == true`);
        }
        break;
      }
      case 'return': {
        const out = compileProjection(clause.projection, ops, scope, expr);
        ops.push(aql`LIMIT ${input.rowCap}`);
        ops.push(aql`RETURN [${join(out.refs, ', ')}]`);
        return { query: ops.toQuery(), columns: out.columns };
      }
    }
  }
  throw new Error('a parsed query always ends with RETURN');
}

import { InvalidParameterError } from '@civicgraph/kit';
import { aql, join, literal, type AqlQuery } from 'arangojs/aql';
import type { Expr, Projection, ReturnItem } from '../ast.js';
import { aggregatesIn, evaluate, subExpressions } from '../expressions.js';
import { Row } from '../row.js';
import { compileExpr, type Binding, type ExprContext } from './expression.js';
import { fail, ref, type Ops } from './ops.js';
import { orderKey } from './semantics.js';

export interface Projected {
  columns: string[];
  /** The columns' variables, in order. */
  refs: AqlQuery[];
  /** The scope after the projection: the columns only. */
  scope: Map<string, Binding>;
}

/** LIMIT with no count given: AQL's LIMIT always takes one. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * WITH and RETURN as the evaluator's `project` (project.ts): the items per row, or per
 * group when an item aggregates (the items without aggregates are the keys), then
 * DISTINCT, ORDER BY (which may name the columns and the variables before them), SKIP and
 * LIMIT. Where AQL differs:
 * - Grouping and DISTINCT: AQL's COLLECT tells strings apart by its collation, which takes
 *   some different strings for equal (code points ICU ignores); each string key is grouped
 *   by its hexadecimal UTF-8 as well, so only identical strings share a group. Strings
 *   inside lists or maps are still grouped by AQL's equality.
 * - No rows and no keys: openCypher answers one row (count 0); AQL's COLLECT answers none.
 *   That case collects the rows in a subquery instead.
 * - ORDER BY: AQL sorts null first and types in another order; the sort key is
 *   semantics.ts `orderKey`, ORDER BY's order.
 * - An aggregating item that names a variable outside the keys (`RETURN n.x + count(*)`)
 *   reads it from the group's first row, as the evaluator does; with no rows at all it is
 *   null here, where the evaluator refuses the variable as undefined.
 */
export function compileProjection(
  p: Projection,
  ops: Ops,
  scope: ReadonlyMap<string, Binding>,
  ctx: ExprContext,
): Projected {
  const items: ReturnItem[] = [...(p.star ? starItems(scope) : []), ...p.items];
  const columns = items.map((i) => i.name);
  const duplicate = columns.find((c, i) => columns.indexOf(c) !== i);
  if (duplicate !== undefined)
    throw new InvalidParameterError('query', `The column ${duplicate} is projected twice; alias one.`);
  const aggregates = [...items.map((i) => i.expr), ...p.order.map((o) => o.expr)].flatMap((e) => aggregatesIn(e));

  let cols: Binding[];
  let before: ReadonlyMap<string, Binding> = scope;
  let sortCtx = ctx;
  if (aggregates.length === 0) {
    cols = items.map((i) => column(i.expr, compileExpr(i.expr, ops, scope, ctx), ops, scope));
  } else {
    const grouped = group(items, aggregates, p, ops, scope, ctx);
    cols = grouped.cols;
    before = grouped.scope;
    sortCtx = grouped.ctx;
  }
  if (p.distinct) {
    const carried = carriedBy(
      p.order.map((o) => o.expr),
      before,
      columns,
    );
    const d = ops.names.fresh('g');
    const keys = cols.map((c) => ({ c, g: ops.names.fresh('g'), h: ops.names.fresh('k') }));
    ops.push(
      aql`COLLECT ${join(
        keys.map(({ c, g, h }) => aql`${g} = ${c.ref}, ${h} = (IS_STRING(${c.ref}) ? TO_HEX(${c.ref}) : null)`),
        ', ',
      )}${
        carried.length === 0
          ? aql``
          : aql` INTO ${d} = [${join(
              carried.map((n) => before.get(n)!.ref),
              ', ',
            )}]`
      }`,
    );
    cols = keys.map(({ c, g }) => ({ ...c, ref: ref(g) }));
    before = rebind(carried, before, aql`${d}[0]`, ops);
  }
  if (p.order.length > 0) {
    const sortScope = new Map(before);
    columns.forEach((c, i) => sortScope.set(c, cols[i]!));
    const keys = p.order.map((o) => {
      const k = compileExpr(o.expr, ops, sortScope, sortCtx);
      return aql`${orderKey(k)} ${literal(o.descending ? 'DESC' : 'ASC')}`;
    });
    ops.push(aql`SORT ${join(keys, ', ')}`);
  }
  const skip = count(p.skip, 'SKIP', ctx);
  const limit = count(p.limit, 'LIMIT', ctx);
  if (skip !== undefined || limit !== undefined) ops.push(aql`LIMIT ${skip ?? 0}, ${limit ?? NO_LIMIT}`);
  return { columns, refs: cols.map((c) => c.ref), scope: new Map(columns.map((c, i) => [c, cols[i]!])) };
}

/** `*`: every variable in scope, by name (as the evaluator lists a row's). */
function starItems(scope: ReadonlyMap<string, Binding>): ReturnItem[] {
  return [...scope.keys()]
    .sort()
    .map((name) => ({ expr: { kind: 'variable', name, at: { line: 1, column: 1 } }, name }));
}

/** A projected value in a variable of its own; a projected variable keeps what is known of it. */
function column(e: Expr, value: AqlQuery, ops: Ops, scope: ReadonlyMap<string, Binding>): Binding {
  const v = ops.names.fresh('v');
  ops.push(aql`LET ${v} = ${value}`);
  const known = e.kind === 'variable' ? scope.get(e.name) : undefined;
  return known === undefined ? { sort: 'value', ref: ref(v) } : { ...known, ref: ref(v) };
}

/** Variables named outside aggregates (a projection's items, its sort keys), the columns excepted. */
function freeVariables(e: Expr, out: Set<string>): Set<string> {
  if (e.kind === 'variable') out.add(e.name);
  else if (e.kind !== 'aggregate') for (const s of subExpressions(e)) freeVariables(s, out);
  return out;
}

function carriedBy(exprs: Expr[], scope: ReadonlyMap<string, Binding>, except: string[]): string[] {
  const names = new Set<string>();
  for (const e of exprs) freeVariables(e, names);
  return [...names].filter((n) => scope.has(n) && !except.includes(n));
}

/** The carried variables again, from the list a group kept of them (`from[i]`). */
function rebind(names: string[], scope: ReadonlyMap<string, Binding>, from: AqlQuery, ops: Ops): Map<string, Binding> {
  const out = new Map<string, Binding>();
  names.forEach((n, i) => {
    const v = ops.names.fresh('v');
    ops.push(aql`LET ${v} = ${from}[${literal(i)}]`);
    out.set(n, { ...scope.get(n)!, ref: ref(v) });
  });
  return out;
}

/**
 * The grouping: each row's keys and aggregate arguments computed, the rows collected per
 * key (or all together when there is no key), each aggregate computed over its group.
 */
function group(
  items: ReturnItem[],
  aggregates: Expr[],
  p: Projection,
  ops: Ops,
  scope: ReadonlyMap<string, Binding>,
  ctx: ExprContext,
): { cols: Binding[]; scope: Map<string, Binding>; ctx: ExprContext } {
  const isKey = items.map((i) => aggregatesIn(i.expr).length === 0);
  const keyRefs = items.map((i, n) => (isKey[n] ? compileExpr(i.expr, ops, scope, ctx) : undefined));
  const args = aggregates.map((a) =>
    a.kind === 'aggregate' && a.arg !== '*' ? compileExpr(a.arg, ops, scope, ctx) : aql`null`,
  );
  const carried = [
    ...new Set([
      ...carriedBy(
        items.filter((_, n) => !isKey[n]).map((i) => i.expr),
        scope,
        [],
      ),
      ...carriedBy(
        p.order.map((o) => o.expr),
        scope,
        items.map((i) => i.name),
      ),
    ]),
  ];
  const row = aql`{ a: [${join(args, ', ')}], r: [${join(
    carried.map((n) => scope.get(n)!.ref),
    ', ',
  )}] }`;
  const grp = ops.names.fresh('g');
  const keyVars = items.map((_, n) => (isKey[n] ? ops.names.fresh('g') : undefined));
  if (keyRefs.some((k) => k !== undefined)) {
    const parts = items.flatMap((_, n) =>
      isKey[n]
        ? [
            aql`${keyVars[n]!} = ${keyRefs[n]!}, ${ops.names.fresh('k')} = (IS_STRING(${keyRefs[n]!}) ? TO_HEX(${keyRefs[n]!}) : null)`,
          ]
        : [],
    );
    ops.push(aql`COLLECT ${join(parts, ', ')} INTO ${grp} = ${row}`);
  } else {
    const body = ops.drain();
    ops.push(aql`LET ${grp} = (${body} RETURN ${row})`);
    ops.push(aql`FOR ${ops.names.fresh('o')} IN [null]`);
  }
  const values = new Map<Expr, AqlQuery>();
  aggregates.forEach((a, j) => values.set(a, aggregate(a, ref(grp), j, ops)));
  const groupScope = rebind(carried, scope, aql`${grp}[0].r`, ops);
  const aggCtx: ExprContext = { ...ctx, aggregates: values };
  const cols = items.map((item, n) => {
    if (isKey[n]) {
      const known = item.expr.kind === 'variable' ? scope.get(item.expr.name) : undefined;
      return known === undefined
        ? { sort: 'value' as const, ref: ref(keyVars[n]!) }
        : { ...known, ref: ref(keyVars[n]!) };
    }
    return column(item.expr, compileExpr(item.expr, ops, groupScope, aggCtx), ops, groupScope);
  });
  return { cols, scope: groupScope, ctx: aggCtx };
}

/** One aggregate over a group (`grp[*].a[j]`): nulls left out, DISTINCT values once, the evaluator's rules. */
function aggregate(a: Expr, grp: AqlQuery, j: number, ops: Ops): AqlQuery {
  if (a.kind !== 'aggregate') throw new Error('not an aggregate');
  if (a.arg === '*') return ops.let(aql`LENGTH(${grp})`);
  let values = ops.let(aql`${grp}[* RETURN CURRENT.a[${literal(j)}]][* FILTER CURRENT != null]`);
  if (a.distinct) {
    const [x, u, h] = [ops.names.fresh('x'), ops.names.fresh('k'), ops.names.fresh('k')];
    values = ops.let(
      aql`(FOR ${x} IN ${values} COLLECT ${u} = ${x}, ${h} = (IS_STRING(${x}) ? TO_HEX(${x}) : null) RETURN ${u})`,
    );
  }
  const numbers = (fn: string, then: AqlQuery) =>
    aql`(LENGTH(${values}[* FILTER NOT IS_NUMBER(CURRENT)]) > 0 ? ${fail('invalid', `${fn}() takes numbers.`)} : ${then})`;
  switch (a.name) {
    case 'count':
      return ops.let(aql`LENGTH(${values})`);
    case 'collect':
      return values;
    case 'sum':
      return ops.let(numbers('sum', aql`SUM(${values})`));
    case 'avg':
      return ops.let(numbers('avg', aql`AVERAGE(${values})`));
    case 'min':
    case 'max': {
      const x = ops.names.fresh('x');
      return ops.let(
        aql`FIRST(FOR ${x} IN ${values} SORT ${orderKey(ref(x))} ${literal(a.name === 'min' ? 'ASC' : 'DESC')} LIMIT 1 RETURN ${x})`,
      );
    }
  }
}

/** SKIP and LIMIT: a non-negative integer from a literal or a parameter (the evaluator's rule and words). */
function count(e: Expr | undefined, clause: string, ctx: ExprContext): number | undefined {
  if (e === undefined) return undefined;
  const v = evaluate(e, Row.EMPTY, { params: ctx.params });
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new InvalidParameterError('query', `${clause} takes a non-negative integer, not ${JSON.stringify(v)}.`);
  return v;
}

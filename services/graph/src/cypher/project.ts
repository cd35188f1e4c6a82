import { InvalidParameterError } from '@civicgraph/kit';
import type { Expr, Projection } from './ast.js';
import { aggregatesIn, evaluate, type Env } from './expressions.js';
import { Row } from './row.js';
import { orderCompare, valueKey, type Value } from './values.js';

/** The rows a WITH or RETURN produces: its columns, in order, and a row binding each. */
export interface Projected {
  columns: string[];
  rows: Row[];
}

/**
 * WITH and RETURN: the items evaluated per row, or per group when any item aggregates
 * (the items without aggregates are the grouping keys), then DISTINCT, ORDER BY (which may
 * name the projected columns and, without aggregation, the variables before them), SKIP
 * and LIMIT.
 */
export function project(rows: readonly Row[], p: Projection, env: Env): Projected {
  const items = [...(p.star ? starItems(rows) : []), ...p.items];
  const columns = items.map((i) => i.name);
  const duplicate = columns.find((c, i) => columns.indexOf(c) !== i);
  if (duplicate !== undefined)
    throw new InvalidParameterError('query', `The column ${duplicate} is projected twice; alias one.`);
  const aggregates = [...items.map((i) => i.expr), ...p.order.map((o) => o.expr)].flatMap((e) => aggregatesIn(e));
  let out: { source: Row; values: Map<string, Value>; env?: Env }[];
  if (aggregates.length === 0) {
    out = rows.map((source) => ({
      source,
      values: new Map(items.map((i) => [i.name, evaluate(i.expr, source, env)])),
    }));
  } else {
    const keys = items.filter((i) => aggregatesIn(i.expr).length === 0);
    out = groups(
      rows,
      keys.map((k) => k.expr),
      env,
    ).map((group) => {
      const source = group[0] ?? Row.EMPTY;
      const groupEnv: Env = { ...env, aggregates: new Map(aggregates.map((a) => [a, aggregate(a, group, env)])) };
      return { source, values: new Map(items.map((i) => [i.name, evaluate(i.expr, source, groupEnv)])), env: groupEnv };
    });
  }
  if (p.distinct) {
    const seen = new Set<string>();
    out = out.filter((r) => {
      const k = valueKey(columns.map((c) => r.values.get(c)!));
      return seen.has(k) ? false : (seen.add(k), true);
    });
  }
  if (p.order.length > 0) {
    const keyed = out.map((r) => {
      let scope = r.source;
      for (const [name, value] of r.values) scope = scope.with(name, value);
      const e = r.env ?? env;
      return { r, keys: p.order.map((o) => evaluate(o.expr, scope, e)) };
    });
    keyed.sort((a, b) => {
      for (let i = 0; i < p.order.length; i++) {
        const c = orderCompare(a.keys[i]!, b.keys[i]!);
        if (c !== 0) return p.order[i]!.descending ? -c : c;
      }
      return 0;
    });
    out = keyed.map((k) => k.r);
  }
  const skip = count(p.skip, 'SKIP', env);
  const limit = count(p.limit, 'LIMIT', env);
  const sliced = out.slice(skip ?? 0, limit === undefined ? undefined : (skip ?? 0) + limit);
  return { columns, rows: sliced.map((r) => Row.of(r.values)) };
}

function starItems(rows: readonly Row[]): { expr: Expr; name: string }[] {
  const names =
    rows.length === 0
      ? []
      : rows[0]!
          .entries()
          .map(([name]) => name)
          .sort();
  return names.map((name) => ({ expr: { kind: 'variable', name, at: { line: 1, column: 1 } }, name }));
}

/** Rows grouped by the values of the key expressions, in order of first appearance; no rows and no keys is one empty group. */
function groups(rows: readonly Row[], keys: Expr[], env: Env): Row[][] {
  if (rows.length === 0) return keys.length === 0 ? [[]] : [];
  const byKey = new Map<string, Row[]>();
  for (const r of rows) {
    const k = keys.length === 0 ? '' : valueKey(keys.map((e) => evaluate(e, r, env)));
    const g = byKey.get(k);
    if (g === undefined) byKey.set(k, [r]);
    else g.push(r);
  }
  return [...byKey.values()];
}

/** One aggregate over a group's rows: nulls ignored, DISTINCT values once. */
function aggregate(a: Expr, group: readonly Row[], env: Env): Value {
  if (a.kind !== 'aggregate') throw new Error('not an aggregate');
  if (a.arg === '*') return group.length;
  const arg = a.arg;
  let values = group.map((r) => evaluate(arg, r, env)).filter((v) => v !== null);
  if (a.distinct) {
    const seen = new Set<string>();
    values = values.filter((v) => {
      const k = valueKey(v);
      return seen.has(k) ? false : (seen.add(k), true);
    });
  }
  switch (a.name) {
    case 'count':
      return values.length;
    case 'collect':
      return values;
    case 'sum':
      return numbers(values, 'sum').reduce((s, v) => s + v, 0);
    case 'avg': {
      const ns = numbers(values, 'avg');
      return ns.length === 0 ? null : ns.reduce((s, v) => s + v, 0) / ns.length;
    }
    case 'min':
    case 'max': {
      if (values.length === 0) return null;
      const sign = a.name === 'min' ? 1 : -1;
      return values.reduce((best, v) => (sign * orderCompare(v, best) < 0 ? v : best));
    }
  }
}

function numbers(values: Value[], fn: string): number[] {
  for (const v of values) {
    if (typeof v !== 'number')
      throw new InvalidParameterError('query', `${fn}() takes numbers, not ${JSON.stringify(v)}.`);
  }
  return values as number[];
}

/** SKIP and LIMIT: a non-negative integer, from a literal or a parameter. */
function count(e: Expr | undefined, clause: string, env: Env): number | undefined {
  if (e === undefined) return undefined;
  const v = evaluate(e, Row.EMPTY, env);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new InvalidParameterError('query', `${clause} takes a non-negative integer, not ${JSON.stringify(v)}.`);
  return v;
}

import { InvalidParameterError } from '@civicgraph/kit';
import { Aggregator } from './aggregate.js';
import type { Expr, Projection } from './ast.js';
import { aggregatesIn, evaluate, type Env } from './expressions.js';
import { GroupTable } from './group-table.js';
import { Row } from './row.js';
import { orderCompare, valueKey, type Value } from './values.js';

type AggregateExpr = Extract<Expr, { kind: 'aggregate' }>;

/** The rows a WITH or RETURN produces: its columns, in order, and per row its values in that order. */
export interface Projected {
  columns: string[];
  rows: Value[][];
}

interface Item {
  expr: Expr;
  name: string;
}

/** A row of the projection before DISTINCT, ORDER BY, SKIP and LIMIT: its values, and the row (or group's first row) it came from. */
interface Out {
  source: Row;
  values: Value[];
  env: Env;
}

/** A group's first row, and its aggregates fed every row of it. */
interface Group {
  source: Row;
  aggregators: Aggregator[];
}

/**
 * How an ORDER BY expression is read off a projected row: the value of a column it names
 * (or repeats, as `ORDER BY c.slug` after `RETURN c.slug`), else the expression evaluated
 * over the row's columns bound on top of its source row.
 */
type SortKey = { column: number } | { expr: Expr };

/**
 * WITH and RETURN, fed the rows one at a time: the items evaluated per row, or per group
 * when any item aggregates (the items without aggregates are the grouping keys; a group
 * keeps its first row and its aggregates' running state, not its rows), then DISTINCT,
 * ORDER BY (which may name the projected columns and, without aggregation, the variables
 * before them), SKIP and LIMIT.
 */
export class Projector {
  private items: Item[] | undefined;
  private readonly aggregates: AggregateExpr[];
  private readonly perRow: Out[] = [];
  private readonly table = new GroupTable<Group>();
  private keys: Expr[] = [];
  private readonly keyValues: Value[] = [];

  constructor(
    private readonly p: Projection,
    private readonly env: Env,
  ) {
    this.aggregates = [...p.items.map((i) => i.expr), ...p.order.map((o) => o.expr)].flatMap(
      (e) => aggregatesIn(e) as AggregateExpr[],
    );
    if (!p.star) this.itemsFor(undefined);
  }

  add(row: Row): void {
    const items = this.items ?? this.itemsFor(row);
    if (this.aggregates.length === 0) {
      const values = new Array<Value>(items.length);
      for (let i = 0; i < items.length; i++) values[i] = evaluate(items[i]!.expr, row, this.env);
      this.perRow.push({ source: row, values, env: this.env });
      return;
    }
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) this.keyValues[i] = evaluate(keys[i]!, row, this.env);
    const group = this.table.find(this.keyValues, this.newGroup, row);
    for (const a of group.aggregators) a.add(row);
  }

  finish(): Projected {
    const items = this.items ?? this.itemsFor(undefined);
    const p = this.p;
    const env = this.env;
    const columns = items.map((i) => i.name);
    const sortKeys = p.order.map((o) => sortKeyOf(o.expr, items));
    let out: Out[] = this.perRow;
    if (this.aggregates.length > 0) out = this.groupRows(items, sortKeys);
    if (p.distinct) {
      const seen = new Set<string>();
      out = out.filter((r) => {
        const k = valueKey(r.values);
        return seen.has(k) ? false : (seen.add(k), true);
      });
    }
    if (p.order.length > 0) out = sorted(out, p, columns, sortKeys);
    const skip = count(p.skip, 'SKIP', env);
    const limit = count(p.limit, 'LIMIT', env);
    const sliced = out.slice(skip ?? 0, limit === undefined ? undefined : (skip ?? 0) + limit);
    return { columns, rows: sliced.map((r) => r.values) };
  }

  /**
   * Each group as a row: an item that is an aggregate takes its value, any other item is
   * evaluated on the group's first row, with the aggregates' values at hand only when an
   * expression evaluated (an item or an ORDER BY key) holds one.
   */
  private groupRows(items: Item[], sortKeys: SortKey[]): Out[] {
    // No rows and no keys is one group, of no rows.
    if (this.keys.length === 0) this.table.find([], this.newGroup, Row.EMPTY);
    const direct = items.map((i) => (i.expr.kind === 'aggregate' ? this.aggregates.indexOf(i.expr) : -1));
    const evaluated = [
      ...items.filter((_, i) => direct[i]! < 0).map((i) => i.expr),
      ...sortKeys.flatMap((k) => ('expr' in k ? [k.expr] : [])),
    ];
    const needsValues = evaluated.some((e) => aggregatesIn(e).length > 0);
    const { env } = this;
    return this.table.groups.map((group) => {
      const aggregated = group.aggregators.map((a) => a.value());
      const groupEnv: Env = needsValues
        ? { params: env.params, aggregates: new Map(this.aggregates.map((a, i) => [a as Expr, aggregated[i]!])) }
        : env;
      const values = new Array<Value>(items.length);
      for (let i = 0; i < items.length; i++) {
        values[i] = direct[i]! >= 0 ? aggregated[direct[i]!]! : evaluate(items[i]!.expr, group.source, groupEnv);
      }
      return { source: group.source, values, env: groupEnv };
    });
  }

  /** A group whose first row is `source`. */
  private readonly newGroup = (source: Row): Group => ({
    source,
    aggregators: this.aggregates.map((a) => new Aggregator(a, this.env)),
  });

  /** The items, `*` expanded to the variables of the first row (none without rows); each column named once. */
  private itemsFor(first: Row | undefined): Item[] {
    const items = [...(this.p.star ? starItems(first) : []), ...this.p.items];
    const columns = items.map((i) => i.name);
    const duplicate = columns.find((c, i) => columns.indexOf(c) !== i);
    if (duplicate !== undefined)
      throw new InvalidParameterError('query', `The column ${duplicate} is projected twice; alias one.`);
    this.keys = items.filter((i) => aggregatesIn(i.expr).length === 0).map((i) => i.expr);
    this.items = items;
    return items;
  }
}

/**
 * Where an ORDER BY expression's value is already: a column it names, or the column of an
 * item reading the same property of the same variable when no column hides that variable
 * (the value evaluating it over the columns would give is that item's).
 */
function sortKeyOf(e: Expr, items: readonly Item[]): SortKey {
  const named = (name: string) => items.findIndex((i) => i.name === name);
  if (e.kind === 'variable' && named(e.name) >= 0) return { column: named(e.name) };
  if (e.kind === 'property' && e.of.kind === 'variable' && named(e.of.name) < 0) {
    const { key, of } = e;
    const same = items.findIndex(
      (i) =>
        i.expr.kind === 'property' && i.expr.key === key && i.expr.of.kind === 'variable' && i.expr.of.name === of.name,
    );
    if (same >= 0) return { column: same };
  }
  return { expr: e };
}

/** ORDER BY: each row's keys read once, then a stable sort on them. */
function sorted(out: Out[], p: Projection, columns: readonly string[], sortKeys: readonly SortKey[]): Out[] {
  const sign = p.order.map((o) => (o.descending ? -1 : 1));
  const keyed = out.map((r) => {
    let scope: Row | undefined;
    const keys = sortKeys.map((k) => {
      if ('column' in k) return r.values[k.column]!;
      if (scope === undefined) {
        scope = r.source;
        for (let i = 0; i < columns.length; i++) scope = scope.with(columns[i]!, r.values[i]!);
      }
      return evaluate(k.expr, scope, r.env);
    });
    return { r, keys };
  });
  keyed.sort((a, b) => {
    for (let i = 0; i < sign.length; i++) {
      const c = orderCompare(a.keys[i]!, b.keys[i]!);
      if (c !== 0) return sign[i]! * c;
    }
    return 0;
  });
  return keyed.map((k) => k.r);
}

function starItems(first: Row | undefined): Item[] {
  const names =
    first === undefined
      ? []
      : first
          .entries()
          .map(([name]) => name)
          .sort();
  return names.map((name) => ({ expr: { kind: 'variable', name, at: { line: 1, column: 1 } }, name }));
}

/** SKIP and LIMIT: a non-negative integer, from a literal or a parameter. */
function count(e: Expr | undefined, clause: string, env: Env): number | undefined {
  if (e === undefined) return undefined;
  const v = evaluate(e, Row.EMPTY, env);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new InvalidParameterError('query', `${clause} takes a non-negative integer, not ${JSON.stringify(v)}.`);
  return v;
}

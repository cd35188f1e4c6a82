import { InvalidParameterError } from '@civicgraph/kit';
import { Aggregator } from './aggregate.js';
import type { Expr, Projection } from './ast.js';
import { aggregatesIn, evaluate, type Env } from './expressions.js';
import { GroupTable } from './group-table.js';
import { Row } from './row.js';
import { orderCompare, valueKey, type Value } from './values.js';

type AggregateExpr = Extract<Expr, { kind: 'aggregate' }>;

/** The rows a WITH or RETURN produces: its columns, in order, and a row binding each. */
export interface Projected {
  columns: string[];
  rows: Row[];
}

interface Item {
  expr: Expr;
  name: string;
}

/** A row of the projection before DISTINCT, ORDER BY, SKIP and LIMIT: its values, and the row (or group's first row) it came from. */
interface Out {
  source: Row;
  values: Map<string, Value>;
  env?: Env;
}

/** A group's first row, and its aggregates fed every row of it. */
interface Group {
  source: Row;
  aggregators: Aggregator[];
}

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
      this.perRow.push({ source: row, values: new Map(items.map((i) => [i.name, evaluate(i.expr, row, this.env)])) });
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
    let out: Out[] = this.perRow;
    if (this.aggregates.length > 0) {
      // No rows and no keys is one group, of no rows.
      if (this.keys.length === 0) this.table.find([], this.newGroup, Row.EMPTY);
      out = this.table.groups.map((group) => {
        const values = new Map(this.aggregates.map((a, i) => [a as Expr, group.aggregators[i]!.value()]));
        const groupEnv: Env = { params: env.params, aggregates: values };
        return {
          source: group.source,
          values: new Map(items.map((i) => [i.name, evaluate(i.expr, group.source, groupEnv)])),
          env: groupEnv,
        };
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

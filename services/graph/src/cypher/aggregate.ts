import { InvalidParameterError } from '@civicgraph/kit';
import type { Expr } from './ast.js';
import { evaluate, type Env } from './expressions.js';
import type { Row } from './row.js';
import { orderCompare, valueKey, type Value } from './values.js';

type AggregateExpr = Extract<Expr, { kind: 'aggregate' }>;

/**
 * One aggregate over one group, fed a row at a time: nulls ignored, DISTINCT values once.
 * It keeps only what its function needs (a count, a sum, the best value), except collect()
 * and DISTINCT, which keep the values. A sum or average of something not a number is
 * refused when the value is asked for, naming the group's first such value.
 */
export class Aggregator {
  private n = 0;
  private total = 0;
  private best: Value | undefined;
  private notNumber: Value | undefined;
  private readonly collected: Value[] | undefined;
  private readonly seen: Set<string> | undefined;

  constructor(
    private readonly a: AggregateExpr,
    private readonly env: Env,
  ) {
    this.collected = a.name === 'collect' ? [] : undefined;
    this.seen = a.distinct && a.arg !== '*' ? new Set() : undefined;
  }

  add(row: Row): void {
    const arg = this.a.arg;
    if (arg === '*') {
      this.n++;
      return;
    }
    const v = evaluate(arg, row, this.env);
    if (v === null) return;
    if (this.seen !== undefined) {
      const k = valueKey(v);
      if (this.seen.has(k)) return;
      this.seen.add(k);
    }
    this.n++;
    switch (this.a.name) {
      case 'collect':
        this.collected!.push(v);
        break;
      case 'sum':
      case 'avg':
        if (typeof v === 'number') this.total += v;
        else if (this.notNumber === undefined) this.notNumber = v;
        break;
      case 'min':
      case 'max':
        if (this.best === undefined || (this.a.name === 'min' ? 1 : -1) * orderCompare(v, this.best) < 0) this.best = v;
        break;
      case 'count':
        break;
    }
  }

  value(): Value {
    switch (this.a.name) {
      case 'count':
        return this.n;
      case 'collect':
        return this.collected!;
      case 'sum':
      case 'avg':
        if (this.notNumber !== undefined)
          throw new InvalidParameterError(
            'query',
            `${this.a.name}() takes numbers, not ${JSON.stringify(this.notNumber)}.`,
          );
        if (this.a.name === 'sum') return this.total;
        return this.n === 0 ? null : this.total / this.n;
      case 'min':
      case 'max':
        return this.best ?? null;
    }
  }
}

import { contactVisible, cypherBudget, EntitlementRequiredError, QueryTooComplexError } from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { GraphStore } from '../store/graph-store.js';
import { where, type Clause, type Expr, type Query } from './ast.js';
import { parsed } from './parsed.js';
import { evaluate, subExpressions, type Env } from './expressions.js';
import { matchContext, matchPatterns, patternVariables, type MatchContext } from './match.js';
import { Meter } from './meter.js';
import { Projector, type Projected } from './project.js';
import { Row } from './row.js';
import { CONTACT_PROPERTIES } from './schema.js';
import { toOutput } from './values.js';

export interface CypherRequest {
  query: string;
  parameters: Readonly<Record<string, unknown>>;
  /** Candidacies below it do not exist for the query (as REST's `min_confidence`). */
  minConfidence: number;
}

export interface CypherAnswer {
  columns: string[];
  rows: unknown[][];
  stats: { rowsExamined: number; rowsReturned: number; elapsedMs: number };
}

/**
 * Runs a read-only Cypher query over the graph for a principal: parsed by the grammar,
 * refused before it runs when it names a contact property the key may not see, then run
 * within the plan's budget with the caller's scope applied inside the store: by the store
 * itself when it can run Cypher (GraphStore.cypher: ArangoDB compiles it to AQL), else
 * on the store's in-memory index (GraphStore.readView), in one synchronous pass, with the
 * scope in every read of it. Both answer in the same form, shaped by the same `toOutput`.
 */
export async function runCypher(
  store: GraphStore,
  principal: Principal,
  req: CypherRequest,
  now: () => number = Date.now,
): Promise<CypherAnswer> {
  const started = now();
  try {
    return await run(store, principal, req, now, started);
  } catch (err) {
    // Defence in depth behind the nesting and depth limits: a query that still exhausts the
    // stack is too complex, never an internal error.
    if (err instanceof RangeError)
      throw new QueryTooComplexError('The query is nested too deeply to run; flatten it.', {
        field: 'query',
        cause: err,
      });
    throw err;
  }
}

async function run(
  store: GraphStore,
  principal: Principal,
  req: CypherRequest,
  now: () => number,
  started: number,
): Promise<CypherAnswer> {
  const query = parsed(req.query);
  const contact = contactVisible(principal);
  if (!contact) refuseContact(query);
  const budget = cypherBudget(principal);
  if (store.cypher !== undefined) {
    // The store runs the query itself (ArangoDB: compiled to AQL, the scope inside it).
    const out = await store.cypher(query, {
      principal,
      parameters: req.parameters,
      minConfidence: req.minConfidence,
      budget,
    });
    const meter = new Meter(budget, now);
    meter.enter(query.clauses[query.clauses.length - 1]!);
    meter.returned(out.rows.length);
    return {
      columns: out.columns,
      rows: out.rows.map((r) => r.map((v) => toOutput(v, contact))),
      stats: { rowsExamined: out.rowsExamined, rowsReturned: out.rows.length, elapsedMs: now() - started },
    };
  }
  if (store.readView === undefined) throw new Error('runCypher needs a store with cypher or readView');
  const meter = new Meter(budget, now);
  const env: Env = { params: req.parameters };
  const ctx = matchContext(store.readView(), principal, req.minConfidence, meter, env);
  let answer: Projected | undefined;
  const first = stage(ctx, query.clauses, 0, (out) => (answer = out));
  first.push(Row.EMPTY);
  first.end();
  const out = answer!;
  return {
    columns: out.columns,
    rows: out.rows.map((r) => r.map((v) => toOutput(v, contact))),
    stats: { rowsExamined: meter.examined, rowsReturned: out.rows.length, elapsedMs: now() - started },
  };
}

/** One clause as rows flow through it: fed its rows, then told they are all there. */
interface Stage {
  push(row: Row): void;
  end(): void;
}

/**
 * Clauses `i…` of the query, each handing its rows to the next as it makes them, so a MATCH
 * feeding an aggregation holds one row at a time, not all of them. A row a clause hands on
 * counts as examined, in that clause. WITH and RETURN take every row before giving any:
 * RETURN's answer goes to `done`, once, within the plan's rows returned. Stages are
 * classes, not closures made per query, so the per-row calls between them keep one
 * target from query to query and stay compiled.
 */
function stage(ctx: MatchContext, clauses: readonly Clause[], i: number, done: (out: Projected) => void): Stage {
  const clause = clauses[i]!;
  if (clause.kind === 'return') return new ReturnStage(ctx, clause, done);
  const next = stage(ctx, clauses, i + 1, done);
  switch (clause.kind) {
    case 'match':
      return new MatchStage(ctx, clause, next);
    case 'unwind':
      return new UnwindStage(ctx, clause, next);
    case 'with':
      return new WithStage(ctx, clause, next);
  }
}

class ReturnStage implements Stage {
  private readonly projector: Projector;

  constructor(
    private readonly ctx: MatchContext,
    private readonly clause: Extract<Clause, { kind: 'return' }>,
    private readonly done: (out: Projected) => void,
  ) {
    this.projector = new Projector(clause.projection, ctx.env);
  }

  push(row: Row): void {
    this.projector.add(row);
  }

  end(): void {
    this.ctx.meter.enter(this.clause);
    const out = this.projector.finish();
    this.ctx.meter.returned(out.rows.length);
    this.done(out);
  }
}

/** A clause that hands rows on to the next. */
abstract class Feeding<C extends Clause> implements Stage {
  constructor(
    protected readonly ctx: MatchContext,
    protected readonly clause: C,
    private readonly next: Stage,
  ) {}

  abstract push(row: Row): void;

  end(): void {
    this.next.end();
  }

  /** Hands a row on: it counts as examined, in this clause. */
  protected handOn(row: Row): void {
    this.ctx.meter.examine();
    this.next.push(row);
    this.ctx.meter.enter(this.clause);
  }
}

class MatchStage extends Feeding<Extract<Clause, { kind: 'match' }>> {
  private readonly nulls = patternVariables(this.clause.patterns);
  private readonly emit = (row: Row): void => this.handOn(row);

  push(row: Row): void {
    const { ctx, clause } = this;
    ctx.meter.enter(clause);
    const found = matchPatterns(ctx, clause.patterns, clause.where, row, this.emit);
    if (!found && clause.optional) this.handOn(this.nulls.reduce((r, n) => (r.has(n) ? r : r.with(n, null)), row));
  }
}

class UnwindStage extends Feeding<Extract<Clause, { kind: 'unwind' }>> {
  push(row: Row): void {
    const { ctx, clause } = this;
    ctx.meter.enter(clause);
    const v = evaluate(clause.expr, row, ctx.env);
    for (const item of v === null ? [] : Array.isArray(v) ? v : [v]) this.handOn(row.with(clause.as, item));
  }
}

class WithStage extends Feeding<Extract<Clause, { kind: 'with' }>> {
  private readonly projector = new Projector(this.clause.projection, this.ctx.env);

  push(row: Row): void {
    this.ctx.meter.enter(this.clause);
    this.projector.add(row);
  }

  override end(): void {
    const { ctx, clause } = this;
    ctx.meter.enter(clause);
    const { columns, rows } = this.projector.finish();
    for (const values of rows) {
      const r = Row.of(columns, values);
      if (clause.where === undefined || evaluate(clause.where, r, ctx.env) === true) this.handOn(r);
    }
    super.end();
  }
}

/** A query naming a contact property (anywhere) without `contact` is refused, naming it and where. */
function refuseContact(query: Query): void {
  const check = (e: Expr): void => {
    if (e.kind === 'property' && CONTACT_PROPERTIES.has(e.key)) {
      throw new EntitlementRequiredError(
        `The property ${e.key} (${where(e.at)}) requires the contact entitlement, which this key lacks.`,
        { field: e.key },
      );
    }
    for (const sub of subExpressions(e)) check(sub);
  };
  for (const c of query.clauses) {
    for (const e of clauseExpressions(c)) check(e);
    if (c.kind === 'match') {
      for (const p of c.patterns) {
        for (const part of [...p.nodes, ...p.rels]) {
          const named = part.properties.find(([k]) => CONTACT_PROPERTIES.has(k));
          if (named !== undefined) {
            throw new EntitlementRequiredError(
              `The property ${named[0]} (${where(part.at)}) requires the contact entitlement, which this key lacks.`,
              { field: named[0] },
            );
          }
          for (const [, e] of part.properties) check(e);
        }
      }
    }
  }
}

function clauseExpressions(c: Clause): Expr[] {
  switch (c.kind) {
    case 'match':
      return c.where === undefined ? [] : [c.where];
    case 'unwind':
      return [c.expr];
    case 'with':
    case 'return': {
      const p = c.projection;
      const own = [...p.items.map((i) => i.expr), ...p.order.map((o) => o.expr)];
      return c.kind === 'with' && c.where !== undefined ? [...own, c.where] : own;
    }
  }
}

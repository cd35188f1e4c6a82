import { InvalidParameterError } from '@civicgraph/kit';
import { ImportLag } from './import-lag.js';
import { SOURCES, type Source } from './registry.js';
import { runSource, type RunContext } from './run/run-source.js';
import { dueSources } from './run/schedule.js';
import type { RunRecord, SourceState } from './state/ingest-store.js';

/** A source with what the ingest service knows of it. */
export interface SourceStatus {
  source: Source;
  state: SourceState;
}

/**
 * Keeps the graph and the boundaries current from the public sources: runs sources one
 * at a time in registry order (dependencies first), on demand or as they come due, each
 * as a recorded job (run-source.ts).
 */
export class Ingest {
  private pass: Promise<RunRecord[]> = Promise.resolve([]);
  private timer: NodeJS.Timeout | undefined;

  private readonly ctx: RunContext;

  constructor(
    ctx: RunContext,
    readonly sources: readonly Source[] = SOURCES,
  ) {
    this.ctx = { lag: new ImportLag(), ...ctx };
  }

  /** Every source with its state. */
  list(): SourceStatus[] {
    return this.sources.map((source) => ({ source, state: this.ctx.store.state(source.id) }));
  }

  /** The ids `run(ids)` would run, in the order it runs them; an unknown id is refused. */
  queued(ids: readonly string[] = []): string[] {
    const unknown = ids.filter((id) => !this.sources.some((s) => s.id === id));
    if (unknown.length > 0)
      throw new InvalidParameterError(
        'sources',
        `No source ${unknown.join(', ')}; the registry has ${this.sources.map((s) => s.id).join(', ')}.`,
      );
    return (ids.length === 0 ? this.sources : this.sources.filter((s) => ids.includes(s.id))).map((s) => s.id);
  }

  /** Runs the named sources (every source when none is named) after any pass in progress. */
  run(ids: readonly string[] = []): Promise<RunRecord[]> {
    const chosen = this.queued(ids);
    return this.queue(() => this.runEach(this.sources.filter((s) => chosen.includes(s.id))));
  }

  /** Runs the sources that are due (never fetched, or whose refresh or retry time has come). */
  runDue(): Promise<RunRecord[]> {
    return this.queue(() => this.runEach(dueSources(this.sources, (id) => this.ctx.store.state(id), this.ctx.now())));
  }

  /** Runs the due sources now, then looks for due sources every `tickMs`. */
  start(tickMs: number): void {
    const pass = () => {
      this.runDue().catch((err: unknown) => this.ctx.log.error({ err }, 'ingest pass failed'));
    };
    pass();
    this.timer = setInterval(pass, tickMs);
    this.timer.unref();
  }

  /** Stops the schedule and waits for the pass in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.pass.catch(() => undefined);
  }

  private queue(work: () => Promise<RunRecord[]>): Promise<RunRecord[]> {
    const next = this.pass.catch(() => []).then(work);
    this.pass = next;
    return next;
  }

  private async runEach(sources: readonly Source[]): Promise<RunRecord[]> {
    const runs: RunRecord[] = [];
    const later = serveLater(sources);
    for (const source of sources) runs.push(await runSource(source, this.ctx, { serveLater: later.has(source.id) }));
    this.ctx.lag?.passEnded(this.ctx.now());
    return runs;
  }
}

/**
 * The boundary sources of a pass whose maps geo may serve later: every one but the last,
 * whose import waits for the index and so serves them all (one index build per pass, not
 * one per map). Should the last bring nothing new, geo serves the others within a minute.
 */
export function serveLater(sources: readonly Source[]): Set<string> {
  const maps = sources.filter((s) => s.import.kind === 'boundaries').map((s) => s.id);
  return new Set(maps.slice(0, -1));
}

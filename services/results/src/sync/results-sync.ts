import { eventObjectView, type CivicEvent, type Logger, topicOf } from '@civicgraph/kit';
import type { ContestRecord } from '../domain/contest-record.js';
import type { ResultsStore } from '../store/results-store.js';
import type { GraphResults } from './graph-results.js';
import { recordsOf } from './records.js';

/** The fields of a graph `result` node an event carries (its `node`). */
interface ResultNode {
  slug?: unknown;
  data?: {
    contest?: unknown;
    choice?: unknown;
    candidacy?: unknown;
    party?: unknown;
    votes?: unknown;
    share?: unknown;
    totalVotes?: unknown;
    certified?: unknown;
    winner?: unknown;
  };
}

/**
 * Keeps the results store a copy of the graph's result rows. Events say which contests
 * changed; the rows themselves (with the provenance edges events do not carry) are read
 * from the graph over gRPC, so a copy is always of the graph's current state and applying
 * one twice, or late, is harmless. Every read-and-write runs one at a time, so an older
 * read never overwrites a newer one.
 */
export class ResultsSync {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: ResultsStore,
    private readonly graph: Pick<GraphResults, 'rows'>,
    private readonly log: Logger,
  ) {}

  /** Re-reads every row from the graph and replaces the store's copy with them; resolves with the contests held. */
  catchUp(): Promise<number> {
    return this.serial(async () => {
      const records = recordsOf(await this.graph.rows(''));
      await this.store.replaceAll(records, new Date().toISOString());
      this.log.info(
        { contests: records.length, rows: records.reduce((n, r) => n + r.rows.length, 0) },
        'results copied from the graph',
      );
      return records.length;
    });
  }

  /** Re-reads these contests' rows from the graph; a contest left with none is dropped. */
  refresh(contests: readonly string[]): Promise<void> {
    return this.serial(async () => {
      for (const contest of contests)
        await this.store.putContest(contest, recordsOf(await this.graph.rows(contest))[0]);
    });
  }

  /** Brings the store up to date with one `result.*` or `contest.*` event. */
  async handle(event: CivicEvent): Promise<void> {
    const contests = await this.contestsChangedBy(event);
    if (contests.length > 0) await this.refresh(contests);
  }

  /** The held contests an event may have changed; none when the store already holds what it says. */
  private async contestsChangedBy(event: CivicEvent): Promise<string[]> {
    const { kind } = topicOf(event);
    const slug = event.slugs[0] ?? '';
    // A contest's scope is kept with its rows: only contests with rows held need reading again.
    if (kind === 'contest') return (await this.store.contest(slug)) === undefined ? [] : [slug];
    if (kind !== 'result') return [];
    const node = event.node === undefined ? undefined : (eventObjectView(event) as ResultNode);
    const contests = new Set<string>();
    if (typeof node?.data?.contest === 'string') contests.add(node.data.contest);
    for (const c of event.changes) if (c.field === 'contest' && typeof c.before === 'string') contests.add(c.before);
    const held = await this.store.contestOf(slug);
    if (held !== undefined) contests.add(held);
    if (node !== undefined && !event.changedFields.includes('SUPPORTED_BY') && (await this.holds(node))) return [];
    return [...contests].filter((c) => typeof c === 'string' && c !== '');
  }

  /**
   * Whether the store already holds the row exactly as the event's node has it. An import
   * commits a contest's rows together and then publishes one event per row: the first
   * event's read brings every row in, and the others need no read of their own. A change
   * of provenance alone names SUPPORTED_BY among its fields, so it is never skipped.
   */
  private async holds(node: ResultNode): Promise<boolean> {
    const d = node.data!;
    const record: ContestRecord | undefined =
      typeof d.contest === 'string' ? await this.store.contest(d.contest) : undefined;
    const row = record?.rows.find((r) => r.slug === node.slug);
    return (
      row !== undefined &&
      row.choice === d.choice &&
      row.candidacy === d.candidacy &&
      row.party === d.party &&
      row.votes === d.votes &&
      row.share === d.share &&
      row.totalVotes === d.totalVotes &&
      row.certified === d.certified &&
      row.winner === d.winner
    );
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }
}

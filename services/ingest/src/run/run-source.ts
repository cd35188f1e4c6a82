import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '@civicgraph/kit';
import { fetchFile, type Origin, type Validators } from '../fetch/fetch-file.js';
import { fetchTree } from '../fetch/fetch-tree.js';
import { stagedName, type Source, type SourceFile } from '../registry.js';
import type { ImportLag } from '../import-lag.js';
import type { IngestStore, RunRecord, SourceState } from '../state/ingest-store.js';
import { importStaged, type ImportOptions, type ImportOutcome, type ImportTargets } from './import-staged.js';
import { READER_REVISIONS, readerOutdated } from './reader-revisions.js';
import { backoffMs } from './schedule.js';

/** What a run needs: where sources come from, where state and files are kept, where imports write. */
export interface RunContext extends ImportTargets {
  store: IngestStore;
  now: () => Date;
  log: Logger;
  /** Told as a run moves: started, finished. */
  onRun?: (run: RunRecord) => void;
  /** Told when an import is served, for civic_lag_seconds{stage="ingest"}. */
  lag?: ImportLag;
}

/** A source's content as fetched: every file by its name, and the validators its host sent. */
interface Content {
  files: Map<string, Uint8Array>;
  validators: Record<string, Validators>;
  /** The Last-Modified of a public fetch, which dates a source that carries no date of its own. */
  lastModified: string | undefined;
}

/**
 * One run of one source: fetch it (conditionally), and when its content is new, stage the
 * files, import them, and keep them as the source's current copy. Nothing new (every file
 * 304, or the same content hash) imports nothing and emits nothing. A failure — unreachable,
 * garbage, an import that refuses — leaves the previous data serving and the previous copy
 * in place, records why, and schedules a retry with backoff.
 */
export async function runSource(source: Source, ctx: RunContext, options: ImportOptions = {}): Promise<RunRecord> {
  const started = ctx.now();
  const run: RunRecord = {
    id: `${started.toISOString()}-${source.id}`,
    source: source.id,
    startedAt: started.toISOString(),
    finishedAt: null,
    status: 'running',
    progress: 0,
    rows: null,
    events: null,
    error: null,
  };
  await report(ctx, run);
  const state = ctx.store.state(source.id);
  const readerRevision = READER_REVISIONS[source.import.kind];
  // Imported under an older reader: read again, from the kept copy where the host says 304.
  const reread = readerOutdated(source, state);
  try {
    const content = await fetchContent(source, ctx, state, reread);
    const fetchedAt = ctx.now();
    const hash = content === undefined ? state.hash : hashOf(content.files);
    if (content === undefined || (hash === state.hash && !reread)) {
      await finish(
        ctx,
        run,
        { ...state, ...(content === undefined ? {} : { validators: content.validators }) },
        'unchanged',
        source,
      );
      return run;
    }
    const outcome = await importAndKeep(source, content, ctx, options);
    ctx.lag?.imported(fetchedAt, ctx.now(), options.serveLater !== true);
    const { created, updated, unchanged, rejected } = outcome.rows;
    Object.assign(run, {
      rows: outcome.rows,
      events: outcome.events,
      progress: created + updated + unchanged + rejected,
    });
    const version = versionOf(content.validators) ?? hash!.slice(0, 16);
    await finish(
      ctx,
      run,
      {
        ...state,
        hash,
        readerRevision,
        validators: content.validators,
        version,
        rows: outcome.rows,
        events: outcome.events,
        lastChangeAt: ctx.now().toISOString(),
      },
      'changed',
      source,
    );
    if (outcome.rejected.length > 0)
      ctx.log.info(
        { source: source.id, rejected: outcome.rows.rejected, first: outcome.rejected },
        'source imported with rejected rows',
      );
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    run.error = reason;
    await finish(ctx, run, { ...state, error: reason, failures: state.failures + 1 }, 'failed', source);
    ctx.log.warn(
      { source: source.id, err: reason, retryInMs: backoffMs(state.failures + 1) },
      'source failed; the previous data still serves',
    );
  }
  return run;
}

async function report(ctx: RunContext, run: RunRecord): Promise<void> {
  await ctx.store.saveRun(run);
  ctx.onRun?.(run);
}

async function finish(
  ctx: RunContext,
  run: RunRecord,
  state: SourceState,
  status: RunRecord['status'],
  source: Source,
): Promise<void> {
  const now = ctx.now();
  run.status = status;
  run.finishedAt = now.toISOString();
  const failed = status === 'failed';
  const next = new Date(now.getTime() + (failed ? backoffMs(state.failures) : source.refreshHours * 3_600_000));
  await ctx.store.saveState({
    ...state,
    status: failed ? 'failed' : 'ok',
    lastFetchAt: now.toISOString(),
    failures: failed ? state.failures : 0,
    error: failed ? state.error : null,
    nextAttemptAt: next.toISOString(),
  });
  await report(ctx, run);
}

/** The source's files; undefined when every one answered 304 Not Modified, unless `reread`. */
async function fetchContent(
  source: Source,
  ctx: RunContext,
  state: SourceState,
  reread: boolean,
): Promise<Content | undefined> {
  const files = new Map<string, Uint8Array>();
  const validators: Record<string, Validators> = {};
  let modified = source.tree !== undefined || reread;
  let lastModified: string | undefined;
  for (const file of filesFrom(source, ctx.origin)) {
    const name = stagedName(file, ctx.origin);
    const fetched = await fetchFile(file, ctx.origin, state.validators[name] ?? {});
    if (fetched.status === 'not-modified') {
      // Unchanged here, maybe not elsewhere: the current copy stands in for it.
      files.set(name, await readFile(join(ctx.filesDir, source.id, name)));
      validators[name] = state.validators[name] ?? {};
      // Its date is the one its host sent before (the latest file dates the source).
      lastModified = latest(lastModified, validators[name].lastModified);
      continue;
    }
    modified = true;
    files.set(name, fetched.bytes);
    validators[name] = fetched.validators;
    lastModified = latest(lastModified, fetched.validators.lastModified);
  }
  if (source.tree !== undefined) {
    for (const [name, bytes] of await fetchTree(source.tree, ctx.origin))
      files.set(`${source.tree.name}/${name}`, bytes);
  }
  return modified ? { files, validators, lastModified } : undefined;
}

/** The files an origin has: the public hosts, those with a URL; a mirror, those it carries. */
function filesFrom(source: Source, origin: Origin): SourceFile[] {
  return source.files.filter((f) => (origin.kind === 'public' ? f.url !== undefined : f.mirror !== undefined));
}

/**
 * Imports the files through the services that own the data, then makes them the source's
 * current copy (written beside it, then swapped in): a failed import leaves the previous
 * copy current.
 */
async function importAndKeep(
  source: Source,
  content: Content,
  ctx: RunContext,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const outcome = await importStaged(source, content.files, sourceDate(source, ctx.origin, content), ctx, options);
  refuseGarbage(outcome);
  const current = join(ctx.filesDir, source.id);
  const staged = `${current}.next`;
  await rm(staged, { recursive: true, force: true });
  for (const [name, bytes] of content.files) {
    await mkdir(dirname(join(staged, name)), { recursive: true });
    await writeFile(join(staged, name), bytes);
  }
  await rm(current, { recursive: true, force: true });
  await rename(staged, current);
  return outcome;
}

/**
 * A version most of whose rows the importer rejects is not the source any more (an error
 * page, a truncated download, a changed layout): the run fails and the previous copy stays
 * the current one. (The rows it did accept are stored: each is valid on its own.)
 */
function refuseGarbage(outcome: ImportOutcome): void {
  const { created, updated, unchanged, rejected } = outcome.rows;
  const accepted = created + updated + unchanged;
  if (rejected > 0 && rejected >= accepted) {
    throw new Error(
      `${rejected} of ${accepted + rejected} rows rejected, e.g. ${outcome.rejected[0] ?? '?'}: not a usable version of the source`,
    );
  }
}

/**
 * What dates a source that carries no date of its own: a mirror's copy is the snapshot the
 * registry names (its files' times say when they were copied); a public file, the
 * Last-Modified its host sent.
 */
function sourceDate(source: Source, origin: Origin, content: Content): string | undefined {
  if (origin.kind !== 'public') return source.snapshot;
  return content.lastModified === undefined ? undefined : new Date(content.lastModified).toISOString();
}

function hashOf(files: ReadonlyMap<string, Uint8Array>): string {
  const h = createHash('sha256');
  for (const name of [...files.keys()].sort()) h.update(name).update('\0').update(files.get(name)!).update('\0');
  return h.digest('hex');
}

function versionOf(validators: Record<string, Validators>): string | undefined {
  const v = Object.values(validators);
  if (v.length !== 1) return undefined;
  return v[0]!.etag ?? v[0]!.lastModified;
}

function latest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

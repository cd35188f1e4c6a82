import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { SOURCES } from '@civicgraph/ingest';
import { processAlive } from '@civicgraph/kit';
import { READER_REVISIONS } from '../../services/ingest/src/run/reader-revisions.js';
import { loadSources } from './sources.js';
import { SHARED_DATA, startStack } from './stack.js';

// Several suites need the registry's maps loaded into a stack before they start. Loading them
// from scratch costs each suite tens of seconds of CPU, so the first suite of a run to ask
// loads them once into a cache folder, and every suite starts its stack on a copy of it
// (startStack's `seed`): each still owns, and may write, its data folder.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Gitignored, and removed by `npm ci`: a clean clone starts with no prepared maps. */
const CACHE = join(ROOT, 'node_modules/.cache/civicgraph-test-maps');
/** What a map load writes in a data folder: geo's store and index snapshot, ingest's state and kept files. */
const KEPT = ['geo', 'geo-index', 'ingest'];
/** The code a map load runs: a change to any of it names another prepared folder. */
const CODE = [
  'services/kit/src',
  'services/geo/src',
  'services/ingest/src',
  'services/stack/src',
  'protos/gen',
  'test/harness',
];
/** A lock file this old with no owner written in it was left by a process that died taking it. */
const UNOWNED_LOCK_MS = 10_000;
const POLL_MS = 500;

/**
 * A data folder holding the registry sources `ids` (boundary maps) loaded as `loadSources`
 * loads them into a fresh stack; read-only: pass it as startStack's `seed`. Built by the
 * first caller of a run (others wait for it) under a name digesting the sources' registry
 * entries, their files in the shared data (path, size, modification time), the ingest
 * reader revisions and the code that loads them, so a stale folder is never used.
 */
export async function preparedMaps(ids: readonly string[]): Promise<string> {
  const dir = join(CACHE, ids.join('+'));
  const ready = join(dir, inputsDigest(ids));
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'lock');
  while (!existsSync(ready)) {
    if (!takeLock(lock)) {
      await sleep(POLL_MS);
      continue;
    }
    try {
      if (!existsSync(ready)) await build(ids, dir, ready);
    } finally {
      rmSync(lock, { force: true });
    }
  }
  return ready;
}

/** Loads the sources into a stack of its own, keeps what the load wrote, and publishes it under `ready` in one rename. */
async function build(ids: readonly string[], dir: string, ready: string): Promise<void> {
  const building = join(dir, `building-${process.pid}`);
  rmSync(building, { recursive: true, force: true });
  const stack = await startStack({ dataDir: building });
  try {
    await loadSources(stack, ids);
  } finally {
    await stack.stop();
  }
  for (const entry of readdirSync(building))
    if (!KEPT.includes(entry)) rmSync(join(building, entry), { recursive: true, force: true });
  try {
    renameSync(building, ready);
  } catch (err) {
    // Built twice (two callers took over one dead builder's lock at once): the first stands.
    if (!existsSync(ready)) throw err;
    rmSync(building, { recursive: true, force: true });
  }
  // Folders of older inputs, and builds whose process died, are never read again.
  for (const entry of readdirSync(dir)) {
    const builder = /^building-(\d+)$/.exec(entry)?.[1];
    if (entry === 'lock' || join(dir, entry) === ready || (builder !== undefined && processAlive(Number(builder))))
      continue;
    rmSync(join(dir, entry), { recursive: true, force: true });
  }
}

/** Creates the lock file holding this process's id; false when a live process holds it (a dead one's is taken over). */
function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (lockHeld(lock)) return false;
  rmSync(lock, { force: true });
  return takeLock(lock);
}

function lockHeld(lock: string): boolean {
  let owner: number;
  try {
    owner = Number(readFileSync(lock, 'utf8'));
    if (owner === 0) return Date.now() - statSync(lock).mtimeMs < UNOWNED_LOCK_MS;
  } catch {
    return true; // released (or replaced) meanwhile: look again
  }
  return processAlive(owner);
}

/** The digest naming a prepared folder: everything its content is made from. */
function inputsDigest(ids: readonly string[]): string {
  const h = createHash('sha256');
  const sources = ids.map((id) => {
    const source = SOURCES.find((s) => s.id === id);
    if (source === undefined) throw new Error(`preparedMaps: no registry source ${id}`);
    return source;
  });
  h.update(JSON.stringify({ ids, sources, readers: READER_REVISIONS, node: process.version }));
  for (const source of sources) {
    for (const file of source.files) if (file.mirror !== undefined) h.update(stamp(join(SHARED_DATA, file.mirror)));
    if (source.tree !== undefined) for (const f of listFiles(join(SHARED_DATA, source.tree.mirror))) h.update(stamp(f));
  }
  for (const f of codeFiles()) h.update(f.slice(ROOT.length)).update(readFileSync(f));
  return h.digest('hex').slice(0, 24);
}

/** The source files of CODE (tests left out: they do not load maps). */
function codeFiles(): string[] {
  return CODE.flatMap((dir) => listFiles(join(ROOT, dir))).filter(
    (f) => /\.(ts|mts|mjs|js|json)$/.test(f) && !f.endsWith('.test.ts'),
  );
}

/** A file's path, size and modification time: what changes when a shared data file is replaced. */
function stamp(path: string): string {
  const s = statSync(path);
  return JSON.stringify([path, s.size, s.mtimeMs]);
}

/** Every file under `dir`, sorted. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

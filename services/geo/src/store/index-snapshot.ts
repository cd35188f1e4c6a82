import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DistrictIndex } from '../domain/district-index.js';
import { AnswerSets } from '../domain/engine/answer-sets.js';
import { RegionBoxes } from '../domain/engine/region-boxes.js';
import { IndexedRegion } from '../domain/indexed-region.js';
import type { BoundarySet } from '../boundaries.js';
import type { BoundaryFile } from '../config.js';
import { readSnapshot, removeSnapshot, SnapshotError, writeSnapshot } from './snapshot-file.js';

/** What a snapshot holds: a loaded boundary set (without its regions: the index holds them) and its index. */
export interface IndexSnapshot {
  set: Omit<BoundarySet, 'regions'>;
  index: DistrictIndex;
}

/** Everything an index is built from; any change names another snapshot. */
export interface SnapshotInputs {
  storeId: string;
  storeGeneration: number;
  files: readonly BoundaryFile[];
  populationCsv: string | undefined;
  resolution: number;
}

const CLASSES = { DistrictIndex, AnswerSets, RegionBoxes, IndexedRegion };
const PREFIX = 'geo-index-';
const SUFFIX = '.snapshot';

/**
 * The snapshot's name for these inputs: a digest of the boundary store's identity and
 * generation, every configured file (path, size, modification time, how it is read), the
 * population file, us-atlas's version, the H3 resolution and the index code itself (its
 * compiled files), so a snapshot is only ever read by the code that wrote it, over the
 * data it was built from.
 */
export function snapshotName(inputs: SnapshotInputs): string {
  const h = createHash('sha256');
  h.update(
    JSON.stringify({
      store: [inputs.storeId, inputs.storeGeneration],
      files: inputs.files.map((f) => ({ ...f, stat: fileStamp(f.path) })),
      population: inputs.populationCsv === undefined ? null : [inputs.populationCsv, fileStamp(inputs.populationCsv)],
      usAtlas: usAtlasVersion(),
      resolution: inputs.resolution,
    }),
  );
  h.update(CODE_DIGEST);
  return `${PREFIX}${h.digest('hex').slice(0, 24)}${SUFFIX}`;
}

/** The snapshot `name` (see `snapshotName`) in `dir`; undefined when there is none (or it cannot be read: it is then rebuilt). */
export function loadIndexSnapshot(dir: string, name: string): IndexSnapshot | undefined {
  const path = join(dir, name);
  try {
    statSync(path);
  } catch {
    return undefined;
  }
  try {
    return readSnapshot(path, CLASSES) as IndexSnapshot;
  } catch (err) {
    if (!(err instanceof SnapshotError) && !(err instanceof SyntaxError) && !(err instanceof RangeError)) throw err;
    removeSnapshot(path);
    return undefined;
  }
}

/**
 * Writes the snapshot under `name` — the name of the inputs read before the build, so a
 * file changed during it names another snapshot — and removes older ones; returns the bytes written.
 */
export function saveIndexSnapshot(dir: string, name: string, snapshot: IndexSnapshot): number {
  const bytes = writeSnapshot(join(dir, name), snapshot, CLASSES);
  for (const other of readdirSync(dir))
    if (other.startsWith(PREFIX) && other.endsWith(SUFFIX) && other !== name) removeSnapshot(join(dir, other));
  return bytes;
}

function fileStamp(path: string): [number, number] | null {
  try {
    const s = statSync(path);
    return [s.size, s.mtimeMs];
  } catch {
    return null;
  }
}

function usAtlasVersion(): string {
  const pkg = createRequire(import.meta.url).resolve('us-atlas/package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** The index's own code (this file and every file of the domain it stores). */
const CODE_DIGEST = (() => {
  const here = dirname(fileURLToPath(import.meta.url));
  const domain = join(here, '..', 'domain');
  const files = [
    ...listJs(here).filter((f) => /snapshot/.test(basename(f))),
    ...listJs(domain),
    ...listJs(join(domain, 'engine')),
  ];
  const h = createHash('sha256');
  for (const f of files.sort()) h.update(f.slice(here.length)).update(readFileSync(f));
  return h.digest('hex');
})();

function listJs(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => /\.(js|ts)$/.test(n) && !/\.test\.|\.d\.ts$/.test(n))
    .map((n) => join(dir, n));
}

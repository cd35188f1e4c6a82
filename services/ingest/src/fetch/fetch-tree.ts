import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { unzipSync } from 'fflate';
import { FetchError, type Origin } from './fetch-file.js';

/** A folder source's files, by path relative to the folder. */
export type TreeFiles = Map<string, Uint8Array>;

/** Where a folder source is: its path under a mirror, and its public archive (a zip, the part under `prefix`). */
export interface TreeLocation {
  mirror: string;
  archive?: { url: string; prefix: string };
}

/**
 * Every file of a folder source (Open States: one YAML file per person): from a mirror
 * folder, read recursively; from the public archive, the entries under its prefix. An HTTP
 * mirror cannot list a folder, so it serves the archive's layout only through the public URL.
 */
export async function fetchTree(tree: TreeLocation, origin: Origin): Promise<TreeFiles> {
  if (origin.kind === 'folder') return fromFolder(join(origin.path, tree.mirror));
  if (tree.archive === undefined)
    throw new FetchError(tree.mirror, 'this folder source is read from a local mirror folder only');
  let res: Response;
  try {
    res = await fetch(tree.archive.url, { signal: AbortSignal.timeout(600_000) });
  } catch (err) {
    throw new FetchError(tree.archive.url, `unreachable (${(err as Error).message})`);
  }
  if (!res.ok) throw new FetchError(tree.archive.url, `HTTP ${res.status} ${res.statusText}`);
  const prefix = tree.archive.prefix;
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()), {
    filter: (f) => f.name.startsWith(prefix) && !f.name.endsWith('/'),
  });
  return new Map(Object.entries(files).map(([name, bytes]) => [name.slice(prefix.length), bytes]));
}

async function fromFolder(root: string): Promise<TreeFiles> {
  const out: TreeFiles = new Map();
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      throw new FetchError(
        dir,
        `cannot read the mirror's folder (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else if (e.isFile()) out.set(relative(root, path).split(sep).join('/'), await readFile(path));
    }
  };
  await walk(root);
  if (out.size === 0) throw new FetchError(root, 'the mirror folder is empty');
  return out;
}

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, processAlive } from '@civicgraph/kit';

/** The lock file `up` holds in its data folder while it serves it. */
export const LOCK_FILE = 'civicgraph-up.lock';

/**
 * Takes the data folder for this process: one `civicgraph up` per folder, since a second
 * would start every service again over the same stores and revoke the first one's key.
 * The lock is a file holding the owner's pid, created exclusively; one left by a process
 * that has died (SIGKILL, a crash) is taken over. Returns the release.
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${pid}\n`, { flag: 'wx' });
      return () => {
        if (ownerOf(path) === pid) rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
    }
    const owner = ownerOf(path);
    if (owner !== undefined && owner !== pid && processAlive(owner))
      throw new ConfigError(
        'CIVIC_DATA_DIR',
        `another civicgraph up (pid ${owner}) is serving ${dataDir}; stop it first, or set CIVIC_DATA_DIR to another folder.`,
      );
    // Left by a process that is gone: taken over.
    rmSync(path, { force: true });
  }
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

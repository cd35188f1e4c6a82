import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * A deployment secret: the configured value when there is one, else a random one kept in
 * `path` (created on first use, mode 0600), so every process of one deployment that shares
 * the data directory (a service and the CLI, say) reads the same secret across restarts.
 * Replicas on different machines must be configured with one value instead.
 */
export function secretFromFile(path: string, configured: string | undefined): Buffer {
  if (configured !== undefined) return Buffer.from(configured, 'utf8');
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    try {
      writeFileSync(path, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process starting at the same moment wrote it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return Buffer.from(readFileSync(path, 'utf8').trim(), 'utf8');
}

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Test fixtures written to a fresh temp folder (never into the repository): each test
 * builds the small bad file it needs. `cleanup` removes the folder.
 */
export function fixtureDir(): {
  dir: string;
  write: (name: string, content: string | Uint8Array) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'civic-import-'));
  return {
    dir,
    write(name, content) {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Drains an importer into batches and rejections. */
export async function collect<T extends object>(
  items: AsyncIterable<T>,
): Promise<{ batches: Extract<T, { batch: unknown }>[]; rejections: Extract<T, { rejected: unknown }>[] }> {
  const batches: Extract<T, { batch: unknown }>[] = [];
  const rejections: Extract<T, { rejected: unknown }>[] = [];
  for await (const item of items) {
    if ('batch' in item) batches.push(item as Extract<T, { batch: unknown }>);
    else rejections.push(item as Extract<T, { rejected: unknown }>);
  }
  return { batches, rejections };
}

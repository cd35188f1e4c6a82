import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IN_FLIGHT, TextFile } from './text-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'civic-text-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Writes `lines` as a writer does (waiting only when asked), then closes. */
async function writeAll(file: TextFile, lines: readonly string[]) {
  for (const line of lines) {
    const wait = file.write(line);
    if (wait !== undefined) await wait;
  }
  return file.close();
}

/** Lines gzip cannot shrink, enough to fill every stream's buffer several times over. */
function incompressible(megabytes: number): string[] {
  return Array.from({ length: megabytes * 16 }, () => `${randomBytes(48 * 1024).toString('base64')}\n`);
}

describe('TextFile', () => {
  it.each([
    ['plain', false],
    ['gzip', true],
  ])('%s: the file holds the text, and its size and SHA-256 are what was written', async (_, gzip) => {
    const path = join(dir, gzip ? 'rows.ndjson.gz' : 'rows.csv');
    const lines = [...incompressible(3), 'é ünïcode ✓\n'];
    const written = await writeAll(new TextFile(path, gzip), lines);
    const bytes = await readFile(path);
    expect(written.bytes).toBe(bytes.length);
    expect(written.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const text = lines.join('');
    expect((gzip ? gunzipSync(bytes) : bytes).toString('utf8')).toBe(text);
    expect(written.textBytes).toBe(Buffer.byteLength(text));
  });

  // The disk failing under gzip used to leave the writer waiting for a drain that never came
  // (pipe does not pass a destination's failure back): the export hung instead of failing.
  it.each([
    ['plain', false],
    ['gzip', true],
  ])('%s: a file that cannot be written fails the writer, however much it is given', async (_, gzip) => {
    const file = new TextFile(join(dir, 'missing-folder', 'rows'), gzip);
    await expect(writeAll(file, incompressible(8))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  // Text longer than a chunk is sent on its own, after the chunk before it. When both had to wait, the
  // first wait was dropped: the file's failure then rejected it unhandled, which ends a Node process.
  it.each([
    ['plain', false],
    ['gzip', true],
  ])(
    '%s: text longer than a chunk after a full stream fails the writer, leaving nothing unhandled',
    async (_, gzip) => {
      const unhandled: unknown[] = [];
      const note = (reason: unknown) => void unhandled.push(reason);
      process.on('unhandledRejection', note);
      try {
        const file = new TextFile(join(dir, 'missing-folder', 'features'), gzip);
        // The first line leaves the stream one byte short of full; the second, kept in the chunk, fills it when
        // the third, longer than a chunk, is written: both the chunk and the third line are then asked to wait.
        const lines = [`${'a'.repeat(IN_FLIGHT - 2)}\n`, 'x\n', `${'b'.repeat(300_000)}\n`];
        await expect(writeAll(file, lines)).rejects.toMatchObject({ code: 'ENOENT' });
        // Node reports an unhandled rejection once the microtasks of the turn it happened in have run.
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', note);
      }
    },
  );

  it('a destroyed file fails its writer instead of leaving it waiting', async () => {
    const file = new TextFile(join(dir, 'rows.ndjson.gz'), true);
    const lines = incompressible(8);
    file.destroy();
    await expect(writeAll(file, lines)).rejects.toThrow();
  });
});

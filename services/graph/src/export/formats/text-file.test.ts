import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TextFile } from './text-file.js';

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

  it('a destroyed file fails its writer instead of leaving it waiting', async () => {
    const file = new TextFile(join(dir, 'rows.ndjson.gz'), true);
    const lines = incompressible(8);
    file.destroy();
    await expect(writeAll(file, lines)).rejects.toThrow();
  });
});

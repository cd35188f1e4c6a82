import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '@civicgraph/kit';
import { LOCK_FILE, lockDataDir } from './data-lock.js';

const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'civic-lock-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('lockDataDir', () => {
  it('holds the folder with a file naming its pid, and releases it', () => {
    const dir = fresh();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a folder a living process holds, naming it and the setting to change', () => {
    const dir = fresh();
    const release = lockDataDir(dir);
    let refusal: unknown;
    try {
      lockDataDir(dir, process.pid + 1_000_000);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(ConfigError);
    expect(String((refusal as Error).message)).toMatch(
      new RegExp(`another civicgraph up \\(pid ${process.pid}\\) is serving .*CIVIC_DATA_DIR`),
    );
    release();
  });

  it("takes over a lock left by a process that died, and a release never removes another's lock", async () => {
    const dir = fresh();
    const gone = await deadPid();
    writeFileSync(join(dir, LOCK_FILE), `${gone}\n`);
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    writeFileSync(join(dir, LOCK_FILE), `${gone}\n`);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
  });
});

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LmdbBoundaryStore } from '@civicgraph/geo';
import { sharedData } from '@civicgraph/kit';
import { COMMAND_USAGE, VERSION } from './usage.js';
import { LOCK_FILE } from './commands/data-lock.js';

/** The built `civicgraph` (npm test builds before it tests), in a data folder of its own. */
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'civic-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function civicgraph(...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, CIVIC_DATA_DIR: dataDir, PORT: '0', NATS_URL: '', LOG_LEVEL: 'warn' } },
      (err, stdout, stderr) => resolve({ code: err === null ? 0 : Number(err.code), stdout, stderr }),
    );
  });
}

describe('civicgraph --help and --version', () => {
  it('prints its version for --version, -v, and after any command', async () => {
    for (const args of [['--version'], ['-v'], ['keys', '--version'], ['up', '--version']]) {
      expect(await civicgraph(...args), args.join(' ')).toMatchObject({ code: 0, stdout: `civicgraph ${VERSION}\n` });
    }
  });

  it('prints the usage of every command, and each command its own, starting nothing', async () => {
    const all = await civicgraph('--help');
    expect(all.code).toBe(0);
    for (const [command, usage] of Object.entries(COMMAND_USAGE)) {
      expect(all.stdout).toContain(usage);
      const own = await civicgraph(command, '--help');
      expect(own, command).toMatchObject({ code: 0, stdout: `usage:\n${usage}` });
    }
    // `up --help` started no stack: it took no lock and made no stores in the data folder.
    // (It runs before the import test below, which opens the boundary store.)
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('refuses an unknown command, naming it', async () => {
    const out = await civicgraph('serve');
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^civicgraph: no command "serve"/);
  });
});

describe('civicgraph refusals name the flag to change', () => {
  it('an import with a malformed date names --valid-from, and imports nothing', async () => {
    const out = await civicgraph(
      'import',
      'boundaries',
      sharedData('boundaries/state-legislative/co/co-state-senate-districts-2021.geojson') ?? 'missing shared data',
      '--level',
      'state-legislative-upper',
      '--valid-from',
      '2021-13-01',
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(
      'civicgraph: --valid-from: --valid-from must be a date written YYYY-MM-DD, got "2021-13-01".\n',
    );
    const store = LmdbBoundaryStore.open(join(dataDir, 'geo'));
    try {
      expect(store.list()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('a key with an unknown plan names --plan; an unknown flag is named with the command usage', async () => {
    const plan = await civicgraph('keys', 'create', '--plan', 'gold');
    expect(plan.code).toBe(2);
    expect(plan.stderr).toMatch(/^civicgraph: --plan: --plan must be one of explore, build, enterprise/);
    const unknown = await civicgraph('up', '--dmeo');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--dmeo'");
    expect(unknown.stderr).toContain(COMMAND_USAGE.up);
  });
});

describe('civicgraph up on a data folder another up serves', () => {
  it('refuses at once, naming the other process, and leaves its lock alone', async () => {
    // This test's own process stands for the running `up`.
    writeFileSync(join(dataDir, LOCK_FILE), `${process.pid}\n`);
    try {
      const out = await civicgraph('up', '--demo');
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(`another civicgraph up (pid ${process.pid}) is serving ${dataDir}`);
      expect(out.stdout).toBe('');
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);
    } finally {
      rmSync(join(dataDir, LOCK_FILE), { force: true });
    }
  });
});

describe('civicgraph sources list', () => {
  it('lists every registry source, never fetched on a new folder, without starting a service', async () => {
    const out = await civicgraph('sources', 'list', '--json');
    expect(out.code).toBe(0);
    const listed = JSON.parse(out.stdout) as { id: string; status: string }[];
    expect(listed.map((s) => s.id)).toContain('tiger2022-cd');
    expect(new Set(listed.map((s) => s.status))).toEqual(new Set(['never']));
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});

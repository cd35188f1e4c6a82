import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const script = join(root, 'scripts/gen-protos.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'civic-gen-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('generated protos', () => {
  it('protos/gen matches what protoc and ts-proto generate from protos/', () => {
    const out = execFileSync('node', [script, '--check'], { cwd: root, encoding: 'utf8' });
    expect(out).toContain('up to date');
  });

  it('the drift check fails when a generated file was edited by hand', () => {
    const stale = join(tmp, 'gen');
    cpSync(join(root, 'protos/gen'), stale, { recursive: true });
    appendFileSync(join(stale, 'civic/geo/v1/geo.ts'), '\n// hand edit\n');
    const run = spawnSync('node', [script, '--check', '--gen-dir', stale], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('civic/geo/v1/geo.ts');
  });
});

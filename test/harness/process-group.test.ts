import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scaled } from '@civicgraph/kit/testing';
import { runInGroup } from './process-group.js';

// A command that starts a "server" (a child that never exits on its own), names its pid on
// stderr, then does what `then` says.
const withServer = (then: string) => `
  const { spawn } = require('node:child_process');
  const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'inherit' });
  process.stderr.write('server ' + server.pid + '\\n');
  ${then}
`;
const options = { cwd: process.cwd(), env: process.env, timeoutMs: scaled(20_000) };
/** Long enough for the command to have started its server on a loaded machine. */
const SHORT = scaled(3_000);

/** The server's pid, which the command must have named (else the test would pass on nothing). */
function serverPid(stderr: string): number {
  const pid = Number(/server (\d+)/.exec(stderr)?.[1]);
  expect(pid, stderr).toBeGreaterThan(0);
  return pid;
}

/** Gone: no such process, or one that died and waits to be reaped (a zombie holds no port or CPU). */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') === true;
  } catch {
    return true;
  }
}

describe.runIf(process.platform === 'linux')('runInGroup', () => {
  it('kills the servers a command leaves running when it exits', async () => {
    const run = await runInGroup(
      process.execPath,
      ['-e', withServer('setTimeout(() => process.exit(3), 200)')],
      options,
    );
    expect(run).toMatchObject({ status: 3, timedOut: false });
    const pid = serverPid(run.stderr);
    await expect.poll(() => gone(pid)).toBe(true);
  });

  it('kills a command that runs past its time, and its servers with it', async () => {
    const run = await runInGroup(process.execPath, ['-e', withServer('setInterval(() => {}, 60_000)')], {
      ...options,
      timeoutMs: SHORT,
    });
    expect(run).toMatchObject({ status: null, signal: 'SIGTERM', timedOut: true });
    const pid = serverPid(run.stderr);
    await expect.poll(() => gone(pid)).toBe(true);
  });

  it('kills the group with SIGKILL when the command ignores SIGTERM', async () => {
    const stubborn = withServer("process.on('SIGTERM', () => {}); setInterval(() => {}, 60_000)");
    const run = await runInGroup(process.execPath, ['-e', stubborn], { ...options, timeoutMs: SHORT, graceMs: 500 });
    expect(run).toMatchObject({ status: null, signal: 'SIGKILL', timedOut: true });
    const pid = serverPid(run.stderr);
    await expect.poll(() => gone(pid)).toBe(true);
  });
});

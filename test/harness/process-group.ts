import { spawn } from 'node:child_process';

/** How a command run by `runInGroup` ended. */
export interface GroupRun {
  /** Its exit code; null when a signal ended it. */
  status: number | null;
  signal: NodeJS.Signals | null;
  /** Killed for running past `timeoutMs`. */
  timedOut: boolean;
  /** The last `STDERR_TAIL` characters it wrote to stderr. */
  stderr: string;
}

export interface GroupOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** After SIGTERM on timeout, how long the group has to exit before SIGKILL. */
  graceMs?: number;
}

const STDERR_TAIL = 16_000;
/** Process groups started here and not yet known to be gone. */
const live = new Set<number>();

// A worker that exits while a command runs (a test timeout, a crash of the run) takes its group with it.
process.on('exit', () => killGroups());

/**
 * Runs a command in a process group of its own, and kills the whole group once the command
 * exits, however it exits, or when it runs past `timeoutMs`: the servers a benchmark script
 * forks die with it instead of outliving the test (killing only the script, as spawnSync's
 * timeout does, leaves them running and holding ports and CPU).
 */
export function runInGroup(command: string, args: string[], options: GroupOptions): Promise<GroupRun> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true, // its own process group, whose id is its pid
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  return new Promise((resolve, reject) => {
    if (child.pid === undefined) {
      child.once('error', reject);
      return;
    }
    const group = child.pid;
    live.add(group);
    let timedOut = false;
    let force: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(group, 'SIGTERM');
      force = setTimeout(() => killGroup(group, 'SIGKILL'), options.graceMs ?? 5_000);
    }, options.timeoutMs);
    child.once('exit', (status, signal) => {
      clearTimeout(timer);
      clearTimeout(force);
      // Whatever the command left running dies now; its stderr then closes.
      killGroup(group, 'SIGKILL');
      live.delete(group);
      child.once('close', () => resolve({ status, signal, timedOut, stderr }));
    });
  });
}

/** Kills every group still running (a test's cleanup, when its command outlived it). */
export function killGroups(): void {
  for (const group of live) killGroup(group, 'SIGKILL');
  live.clear();
}

function killGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

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

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

// A group of its own is out of reach of the signals that end this process (vitest stops its
// workers with SIGTERM; Ctrl-C reaches the terminal's group only): while a group runs, an
// exit or such a signal here kills it first.
process.on('exit', () => killGroups());

function onSignal(signal: NodeJS.Signals): void {
  killGroups();
  process.kill(process.pid, signal); // no listener left: the signal's default action ends the process
}

function track(group: number): void {
  if (live.size === 0) for (const signal of SIGNALS) process.on(signal, onSignal);
  live.add(group);
}

function untrack(group: number): void {
  live.delete(group);
  if (live.size === 0) for (const signal of SIGNALS) process.off(signal, onSignal);
}

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
    track(group);
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
      untrack(group);
      child.once('close', () => resolve({ status, signal, timedOut, stderr }));
    });
  });
}

/** Kills every group still running (a test's cleanup, when its command outlived it). */
export function killGroups(): void {
  for (const group of live) {
    killGroup(group, 'SIGKILL');
    untrack(group);
  }
}

function killGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

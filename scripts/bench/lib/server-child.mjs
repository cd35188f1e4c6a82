// A server under benchmark in a process of its own, with the probe (probe.cjs) preloaded and
// an IPC channel to it: the load, the report and the other servers run elsewhere, so the
// server's event loop, garbage collector and CPU time are its own and measured where they are.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROBE = fileURLToPath(new URL('./probe.cjs', import.meta.url));

/**
 * Starts `entry` (a module) with the probe; resolves once the child reports `{ready: info}`
 * over IPC (entries written for the benchmark do), or at once with `ready: false`.
 */
export async function startServerChild(
  entry,
  { args = [], env = process.env, execArgv = [], ready = true, stdout = 'ignore' } = {},
) {
  // As deployed (the Docker image, npm start): libraries take their production paths
  // (graphql-js skips its cross-realm instanceof checks).
  const child = fork(entry, args, {
    env: { ...env, NODE_ENV: 'production' },
    execArgv: [...execArgv, '--require', PROBE],
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const info = ready ? await readyMessage(child, exited) : undefined;
  return { child, info, probe: new Probe(child), stop: () => stopChild(child, exited) };
}

function readyMessage(child, exited) {
  return new Promise((resolve, reject) => {
    const onMessage = (m) => {
      if (m?.ready === undefined) return;
      child.off('message', onMessage);
      resolve(m.ready);
    };
    child.on('message', onMessage);
    exited.then(({ code, signal }) => reject(new Error(`server child exited (${code ?? signal}) before it was ready`)));
  });
}

async function stopChild(child, exited) {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** The benchmark's side of probe.cjs. */
export class Probe {
  constructor(child) {
    this.child = child;
  }

  /** Sends `{probe: kind}` and resolves with the reply of kind `reply`. */
  ask(kind, reply) {
    return new Promise((resolve, reject) => {
      const onMessage = (m) => {
        if (m?.probe !== reply) return;
        this.child.off('message', onMessage);
        resolve(m);
      };
      this.child.on('message', onMessage);
      this.child.send({ probe: kind }, (err) => {
        if (err) {
          this.child.off('message', onMessage);
          reject(err);
        }
      });
    });
  }

  async start() {
    await this.ask('start', 'started');
  }

  /** {loopDelayP99ms, gc: {pauses, maxMs, totalMs, over15ms, long}, cpuUs: {user, system}} since start(). */
  async stop() {
    return (await this.ask('stop', 'stats')).stats;
  }

  async gc() {
    await this.ask('gc', 'collected');
  }

  async cpu() {
    return (await this.ask('cpu', 'cpu')).cpuUs;
  }

  /** Starts the server's sampling CPU profiler. */
  async profile() {
    await this.ask('profile', 'profiling');
  }

  /** Stops it: the .cpuprofile of the server since profile(). */
  async profiled() {
    const reply = await this.ask('profiled', 'profile');
    if (reply.error !== undefined) throw new Error(`the server's profiler: ${reply.error}`);
    return reply.profile;
  }
}

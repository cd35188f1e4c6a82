import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { probeNats } from '../bus/nats-bus.js';
import { scaled } from './time-scale.js';

/**
 * A NATS server of a test's own, with JetStream storing in a folder the test owns, so the
 * test can stop and start it — a real server restart, which the machine's shared server
 * (other suites use it at the same time) must never see. Restarted on the same port and
 * folder, it comes back with its streams and durable consumers, as a production one does.
 */
export class NatsServerProcess {
  private child: ChildProcess | undefined;

  private constructor(
    private readonly binary: string,
    private readonly port: number,
    private readonly storeDir: string,
  ) {}

  /**
   * The nats-server binary: `NATS_SERVER_BIN`, else `nats-server` on the PATH or in
   * /usr/sbin (where Debian's package puts it). Throws naming where it looked.
   */
  static findBinary(env: NodeJS.ProcessEnv = process.env): string {
    const candidates =
      env['NATS_SERVER_BIN'] !== undefined
        ? [env['NATS_SERVER_BIN']]
        : [...(env['PATH'] ?? '').split(delimiter).filter((d) => d !== ''), '/usr/sbin', '/usr/local/sbin'].map((d) =>
            join(d, 'nats-server'),
          );
    for (const path of candidates) {
      try {
        accessSync(path, constants.X_OK);
        return path;
      } catch {
        // not here; try the next
      }
    }
    throw new Error(`no executable nats-server (looked at ${candidates.join(', ')}; set NATS_SERVER_BIN)`);
  }

  /** Starts a server with JetStream on a free loopback port, storing in `storeDir`. */
  static async start(storeDir: string, binary = NatsServerProcess.findBinary()): Promise<NatsServerProcess> {
    const server = new NatsServerProcess(binary, await freePort(), storeDir);
    await server.boot();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Stops the server as an operator's restart does (SIGTERM), and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }

  /** Starts it again on the same port, with the same JetStream folder. */
  async restart(): Promise<void> {
    await this.stop();
    await this.boot();
  }

  private async boot(): Promise<void> {
    const child = spawn(this.binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-2000)));
    this.child = child;
    const deadline = Date.now() + scaled(10_000);
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}: ${stderr}`);
      try {
        await probeNats(this.url, 500);
        return;
      } catch (err) {
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`nats-server did not answer on ${this.url} within 10 s: ${stderr}`, { cause: err });
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}

/** A loopback port nobody listens on now (the OS's pick, released for the server to take). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sharedData, SUBSCRIBABLE_EVENT_TYPES } from '@civicgraph/kit';
import { scaled } from '@civicgraph/kit/testing';

/**
 * `npm start` (civicgraph up, the in-process bus) killed with SIGKILL while it delivers the
 * events of an import: after the restart, every event the import committed reaches the
 * webhook receiver. The graph's outbox is acknowledged only once the event is on the
 * stream kept on disk, and the dispatcher resumes that stream from the first event it had
 * not handled.
 */
const bin = fileURLToPath(new URL('../../services/cli/dist/bin.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'civic-e2e-events-'));
const env = { ...process.env, CIVIC_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', NATS_URL: '' };
const FEC = sharedData('candidates/fec/weball24.txt');

const civicgraph = async (...args: string[]): Promise<string> =>
  (await promisify(execFile)('node', [bin, ...args], { env, maxBuffer: 1 << 26 })).stdout;

/** Starts `civicgraph up --demo`; resolves with its URL once the banner is printed. */
async function startUp(): Promise<{ child: ChildProcess; url: string }> {
  let out = '';
  let err = '';
  const child = spawn('node', [bin, 'up', '--demo'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await vi.waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`civicgraph up exited ${child.exitCode}: ${err}`);
      expect(out).toContain('GraphiQL');
    },
    { timeout: scaled(400_000), interval: 250 },
  );
  return { child, url: /up at (http:\/\/\S+)/.exec(out)![1]! };
}

/** A receiver that answers each delivery after a few milliseconds, so a backlog builds up. */
async function slowReceiver(): Promise<{ url: string; eventIds: Set<string>; requests: () => number; server: Server }> {
  const eventIds = new Set<string>();
  let requests = 0;
  const server = createServer((req, res) => {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', (c) => (body += c))
      .on('end', () => {
        requests++;
        // The import's events are about graph nodes and carry them; a boundary load's (the
        // geo service announces every region as updated when it starts) carry none.
        const payload = JSON.parse(body) as { id: string; data: { object: unknown } };
        if (payload.data.object !== null) eventIds.add(payload.id);
        setTimeout(() => res.writeHead(200).end(), 5);
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    eventIds,
    requests: () => requests,
    server,
  };
}

let child: ChildProcess | undefined;
let receiver: Awaited<ReturnType<typeof slowReceiver>> | undefined;
afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  receiver?.server.closeAllConnections();
  receiver?.server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(FEC === undefined)('npm start killed with SIGKILL mid-delivery', () => {
  it(
    'delivers every event of an import after the restart',
    async () => {
      const started = performance.now();
      const phase = (name: string) =>
        console.info(`embedded events: ${name} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
      let up = await startUp();
      phase('first start');
      child = up.child;
      receiver = await slowReceiver();
      const key = JSON.parse(
        await civicgraph(
          'keys',
          'create',
          '--env',
          'test',
          '--plan',
          'build',
          '--entitlements',
          'contact,geography',
          '--json',
        ),
      ).key as string;
      const created = await fetch(`${up.url}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: `${receiver.url}/hook`, events: SUBSCRIBABLE_EVENT_TYPES }),
      });
      expect(created.status, await created.clone().text()).toBe(201);

      // The CLI commits the import and its events to the store's outbox; the running service relays and delivers them.
      const summary = JSON.parse(await civicgraph('import', 'fec-candidates', FEC!, '--json')) as { events: number };
      expect(summary.events).toBeGreaterThan(1000);
      phase('import committed');
      await vi.waitFor(() => expect(receiver!.eventIds.size).toBeGreaterThan(100), {
        timeout: scaled(120_000),
        interval: 20,
      });
      const killed = new Promise((resolve) => up.child.once('exit', resolve));
      up.child.kill('SIGKILL');
      await killed;
      const beforeRestart = receiver.eventIds.size;
      expect(beforeRestart, 'killed while a backlog remained').toBeLessThan(summary.events);

      phase(`killed after ${beforeRestart} deliveries`);
      up = await startUp();
      child = up.child;
      phase('restarted');
      await vi.waitFor(() => expect(receiver!.eventIds.size).toBe(summary.events), {
        timeout: scaled(300_000),
        interval: 250,
      });
      console.info(
        `embedded events: ${summary.events} committed, ${beforeRestart} delivered before SIGKILL, all ${receiver.eventIds.size} after the restart (${receiver.requests()} requests)`,
      );
    },
    scaled(900_000),
  );
});

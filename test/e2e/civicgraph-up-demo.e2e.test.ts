import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { constants, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedData, SUBSCRIBABLE_EVENT_TYPES } from '@civicgraph/kit';
import { scaled } from '@civicgraph/kit/testing';
import { preparedMaps } from '../harness/prepared-maps.js';
import { MAP_SOURCES } from '../harness/sources.js';
import { get } from '../harness/stack.js';

/**
 * `civicgraph up --demo` (`npm start`'s all-in-one process, the in-process bus) through one
 * data folder's life. The folder starts as a copy of the run's prepared boundary maps, the
 * sources `--demo` loads, so its first start lays the demo over them without loading the
 * maps again (`up`'s own first load is civicgraph-up.e2e.test.ts's to test). That one start
 * serves every test here, in order: the synthetic elections, then a SIGKILL while it
 * delivers an import's events and the restart that delivers every one, then the folder
 * refused without `--demo`.
 */
const bin = fileURLToPath(new URL('../../services/cli/dist/bin.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'civic-e2e-demo-'));
const env = { ...process.env, CIVIC_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', NATS_URL: '' };
const FEC = sharedData('candidates/fec/weball24.txt');
const scratch = mkdtempSync(join(tmpdir(), 'civic-e2e-fec-'));

/**
 * The FEC's 2024 file cut to its first thousand candidates (over two thousand events), under
 * its own name, which tells the importer the cycle: a backlog that outlasts the first hundred
 * deliveries, as the whole file's does, in a fraction of its import and delivery time.
 */
function fecExtract(): string {
  const file = join(scratch, 'weball24.txt');
  const lines = readFileSync(FEC!, 'utf8').split('\n').slice(0, 1000);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const civicgraph = async (...args: string[]): Promise<string> =>
  (await promisify(execFile)('node', [bin, ...args], { env, maxBuffer: 1 << 26 })).stdout;

/** Starts `civicgraph up --demo`; resolves once its banner is printed. */
async function startUp(): Promise<{ child: ChildProcess; url: string; stdout: string }> {
  let out = '';
  let err = '';
  const started = spawn('node', [bin, 'up', '--demo'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  started.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  try {
    await vi.waitFor(
      () => {
        if (started.exitCode !== null) throw new Error(`civicgraph up exited ${started.exitCode}: ${err}`);
        expect(out).toContain('GraphiQL');
      },
      { timeout: scaled(400_000), interval: 250 },
    );
  } catch (error) {
    // Not left holding the data folder's lock past its test.
    await stop(started, 'SIGKILL');
    throw error;
  }
  return { child: started, url: /up at (http:\/\/\S+)/.exec(out)![1]!, stdout: out };
}

/** Sends `signal` to a running `up`; resolves with its exit code (null when a signal ended it). */
async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  return exited;
}

const curls = (banner: string) =>
  [...banner.matchAll(/curl -H "Authorization: Bearer (\S+)" "(\S+)"/g)].map((m) => ({ key: m[1]!, url: m[2]! }));

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

beforeAll(async () => {
  cpSync(await preparedMaps(MAP_SOURCES), dataDir, { recursive: true, mode: constants.COPYFILE_FICLONE });
}, scaled(400_000));

let up: Awaited<ReturnType<typeof startUp>> | undefined;
let receiver: Awaited<ReturnType<typeof slowReceiver>> | undefined;
afterAll(() => {
  if (up !== undefined && up.child.exitCode === null && up.child.signalCode === null) up.child.kill('SIGKILL');
  receiver?.server.closeAllConnections();
  receiver?.server.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('civicgraph up --demo', () => {
  it(
    'serves synthetic elections over the real maps, labelled synthetic in the banner and in every answer',
    async () => {
      up = await startUp();
      expect(up.stdout).toContain('data: SYNTHETIC demo elections');
      const [ballot] = curls(up.stdout);
      const res = await get(ballot!.url, ballot!.key);
      expect(res.status).toBe(200);
      expect(res.body.regions.map((r: { slug: string }) => r.slug)).toContain('region:co-cd-1');
      const cited = res.body.contests.flatMap((c: { candidacies: { provenance: { method: string }[] }[] }) =>
        c.candidacies.flatMap((x) => x.provenance.map((p) => p.method)),
      );
      expect(cited.length).toBeGreaterThan(0);
      expect(new Set(cited)).toEqual(new Set(['synthetic']));
    },
    scaled(420_000),
  );

  // The graph's outbox is acknowledged only once the event is on the stream kept on disk,
  // and the dispatcher resumes that stream from the first event it had not handled.
  it.skipIf(FEC === undefined)(
    'killed with SIGKILL while it delivers the events of an import, delivers every one after the restart',
    async () => {
      expect(up?.child.exitCode, 'the demo started above').toBeNull();
      const started = performance.now();
      const phase = (name: string) =>
        console.info(`embedded events: ${name} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
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
      const created = await fetch(`${up!.url}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: `${receiver.url}/hook`, events: SUBSCRIBABLE_EVENT_TYPES }),
      });
      expect(created.status, await created.clone().text()).toBe(201);

      // The CLI commits the import and its events to the store's outbox; the running service relays and delivers them.
      const summary = JSON.parse(await civicgraph('import', 'fec-candidates', fecExtract(), '--json')) as {
        events: number;
      };
      expect(summary.events).toBeGreaterThan(1000);
      phase('import committed');
      await vi.waitFor(() => expect(receiver!.eventIds.size).toBeGreaterThan(100), {
        timeout: scaled(120_000),
        interval: 20,
      });
      await stop(up!.child, 'SIGKILL');
      const beforeRestart = receiver.eventIds.size;
      expect(beforeRestart, 'killed while a backlog remained').toBeLessThan(summary.events);

      phase(`killed after ${beforeRestart} deliveries`);
      up = await startUp();
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

  it(
    'a data folder holding the demo refuses to start without --demo, so real and synthetic answers never mix',
    async () => {
      if (up !== undefined) expect(await stop(up.child, 'SIGTERM')).toBe(0);
      // Killed at the deadline: an `up` that is not refused would otherwise load every source and serve on.
      const run = promisify(execFile)('node', [bin, 'up'], { env, timeout: scaled(100_000) });
      await expect(run).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/CIVIC_DATA_DIR: .* holds the synthetic demo graph/),
      });
    },
    scaled(120_000),
  );
});

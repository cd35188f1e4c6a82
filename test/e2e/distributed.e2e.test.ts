import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { probeNats, serviceAvailability } from '@civicgraph/kit';
import { describeWithService, scaled } from '@civicgraph/kit/testing';
import { DENVER, get, SHARED_DATA } from '../harness/stack.js';

const ADMIN_TOKEN = 'distributed-e2e-admin-token-0123456789abcdef';

const root = fileURLToPath(new URL('../../', import.meta.url));
const natsUrl = process.env['NATS_URL'] || 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${natsUrl}`, () => probeNats(natsUrl));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function precinct(path: string, name: string): void {
  const d = 0.01;
  const ring = [
    [DENVER.lng - d, DENVER.lat - d],
    [DENVER.lng + d, DENVER.lat - d],
    [DENVER.lng + d, DENVER.lat + d],
    [DENVER.lng - d, DENVER.lat + d],
    [DENVER.lng - d, DENVER.lat - d],
  ];
  writeFileSync(
    path,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { GEOID: '0803199', NAME: name },
          geometry: { type: 'Polygon', coordinates: [ring] },
        },
      ],
    }),
  );
}

describeWithService('each service as its own process, events over NATS', nats, () => {
  const dir = mkdtempSync(join(tmpdir(), 'civic-dist-'));
  const file = join(dir, 'precinct.geojson');
  const procs: Record<string, ChildProcess> = {};
  const logs: Record<string, string> = {};
  let url = '';
  let env: NodeJS.ProcessEnv = {};

  function start(name: string, main: string): void {
    const child = spawn('node', [join(root, main)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    logs[name] = '';
    child.stdout!.on('data', (d: Buffer) => (logs[name] += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (logs[name] += d.toString()));
    procs[name] = child;
  }

  beforeAll(async () => {
    precinct(file, 'Precinct Before');
    const [geoPort, authPort, graphPort, resultsPort, ingestPort, httpPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    env = {
      ...process.env,
      NATS_URL: natsUrl,
      CIVIC_ENV: 'test',
      CIVIC_DATA_DIR: dir,
      LOG_LEVEL: 'info',
      GEO_GRPC_PORT: String(geoPort),
      AUTH_GRPC_PORT: String(authPort),
      PORT: String(httpPort),
      GEO_ADDR: `127.0.0.1:${geoPort}`,
      AUTH_ADDR: `127.0.0.1:${authPort}`,
      GEO_FILES: `precinct=${file}@co`,
      GRAPH_GRPC_PORT: String(graphPort),
      RESULTS_GRPC_PORT: String(resultsPort),
      GRAPH_ADDR: `127.0.0.1:${graphPort}`,
      RESULTS_ADDR: `127.0.0.1:${resultsPort}`,
      // The ingest service loads one public source, Colorado's House map, from the shared data folder.
      INGEST_GRPC_PORT: String(ingestPort),
      INGEST_ADDR: `127.0.0.1:${ingestPort}`,
      INGEST_SOURCES: 'co-sldl-2021',
      CIVIC_SOURCES_MIRROR: SHARED_DATA,
      CIVIC_ADMIN_TOKEN: ADMIN_TOKEN,
      GEO_STORE_POLL_MS: '200',
    };
    start('auth', 'services/auth/dist/main.js');
    start('geo', 'services/geo/dist/main.js');
    start('graph', 'services/graph/dist/main.js');
    start('results', 'services/results/dist/main.js');
    start('ingest', 'services/ingest/dist/main.js');
    start('gateway', 'services/gateway/dist/main.js');
    url = `http://127.0.0.1:${httpPort}`;
    await vi.waitFor(async () => expect((await get(`${url}/readyz`)).status).toBe(200), {
      timeout: scaled(60_000),
      interval: 250,
    });
  }, scaled(90_000));

  afterAll(() => {
    for (const p of Object.values(procs)) if (p.exitCode === null) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'answers through gateway → auth and geo over gRPC, and a SIGHUP reload reaches the gateway cache over NATS',
    async () => {
      const { stdout } = await promisify(execFile)(
        'node',
        [join(root, 'services/cli/dist/bin.js'), 'keys', 'create', '--plan', 'build', '--json'],
        { env },
      );
      const key = JSON.parse(stdout).key as string;
      // The ingest process imports its map at start; once the service serves it, no reload is
      // due that would empty the gateway's cache between the two requests below.
      await vi.waitFor(
        async () =>
          expect(
            (
              await get(`${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}&date=2024-11-05`, key)
            ).body.data.map((r: { slug: string }) => r.slug),
          ).toContain('region:co-sldl-5'),
        { timeout: scaled(60_000), interval: 250 },
      );
      const at = `${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`;
      const precinctName = async () =>
        (await get(at, key)).body.data.find((r: { level: string }) => r.level === 'precinct')?.name;
      expect(await precinctName()).toBe('Precinct Before');
      expect((await get(at, key)).headers.get('civic-cache')).toBe('hit');
      precinct(file, 'Precinct After');
      procs['geo']!.kill('SIGHUP');
      await vi.waitFor(async () => expect(await precinctName()).toBe('Precinct After'), {
        timeout: scaled(20_000),
        interval: 200,
      });
    },
    scaled(90_000),
  );

  it('the ingest process loads its source into the stores the other processes serve, and the admin API shows it', async () => {
    const { stdout } = await promisify(execFile)(
      'node',
      [join(root, 'services/cli/dist/bin.js'), 'keys', 'create', '--plan', 'build', '--json'],
      { env },
    );
    const key = JSON.parse(stdout).key as string;
    const at = `${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}&date=2024-11-05`;
    await vi.waitFor(
      async () =>
        expect((await get(at, key)).body.data.map((r: { slug: string }) => r.slug)).toContain('region:co-sldl-5'),
      { timeout: scaled(60_000), interval: 250 },
    );
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
    const sources = await get(`${url}/admin/v1/sources`, undefined, admin);
    expect(sources.status).toBe(200);
    expect(sources.body.data.find((s: { id: string }) => s.id === 'co-sldl-2021')).toMatchObject({
      status: 'ok',
      importer: 'boundaries',
      rows: { created: 65 },
    });
    const runs = await get(`${url}/admin/v1/sources/runs`, undefined, admin);
    expect(runs.body.data[0]).toMatchObject({ source: 'co-sldl-2021', status: 'changed' });
    expect((await get(`${url}/admin/v1/sources`, key)).status).toBe(401);
  });

  it('every process drains and exits 0 on SIGTERM', async () => {
    const codes = await Promise.all(
      Object.entries(procs).map(
        ([name, p]) =>
          new Promise<[string, number | null]>((resolve) => {
            p.once('exit', (code) => resolve([name, code]));
            p.kill('SIGTERM');
          }),
      ),
    );
    expect(Object.fromEntries(codes)).toEqual({ auth: 0, geo: 0, graph: 0, results: 0, ingest: 0, gateway: 0 });
    expect(logs['gateway']).toContain('shutdown complete');
  });
});

// The stack as it is deployed: auth, geo, graph, results and gateway each in its own process (their own
// main.js, configured by environment), real gRPC and HTTP on 127.0.0.1. The gateway, which
// answers the HTTP load, carries the probe (lib/probe.cjs).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startServerChild } from '../lib/server-child.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitReady(url, deadline) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} not ready in time`);
}

/** Ends a service process: SIGTERM, then SIGKILL if it has not exited within 15 s. */
function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return undefined;
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts the services as processes with workload (a)'s boundaries, geo at its default H3
 * resolution (as the one-process stack); resolves when ready. `dataDir`: a data folder
 * prepared beforehand (kept; else a temporary one, removed on stop); `execArgv`: Node flags
 * for every service process.
 */
export async function startProcesses(shared, { dataDir, execArgv = [] } = {}) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'civic-bench-procs-'));
  const [geoPort, authPort, graphPort, resultsPort, httpPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    CIVIC_DATA_DIR: dir,
    CIVIC_ENV: 'test',
    LOG_LEVEL: 'warn',
    NATS_URL: '',
    GEO_GRPC_PORT: String(geoPort),
    AUTH_GRPC_PORT: String(authPort),
    PORT: String(httpPort),
    GEO_ADDR: `127.0.0.1:${geoPort}`,
    AUTH_ADDR: `127.0.0.1:${authPort}`,
    GRAPH_GRPC_PORT: String(graphPort),
    RESULTS_GRPC_PORT: String(resultsPort),
    GRAPH_ADDR: `127.0.0.1:${graphPort}`,
    RESULTS_ADDR: `127.0.0.1:${resultsPort}`,
    GEO_POPULATION_CSV: `${shared}population/derived/county-population-v2023.csv`,
    GEO_FILES: `congressional-district=${shared}boundaries/congressional/us-cd119-20m.geojson`,
  };
  let failed;
  const children = ['auth', 'geo', 'graph', 'results'].map((name) => {
    const child = spawn(process.execPath, [...execArgv, join(ROOT, `services/${name}/dist/main.js`)], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', (err) => (failed ??= new Error(`${name}: ${err.message}`)));
    return child;
  });
  let gateway;
  const url = `http://127.0.0.1:${httpPort}`;
  const stop = async () => {
    await gateway?.stop();
    await Promise.all(children.map(stopChild));
    if (dataDir === undefined) rmSync(dir, { recursive: true, force: true });
  };
  try {
    gateway = await startServerChild(join(ROOT, 'services/gateway/dist/main.js'), { env, execArgv, ready: false });
    await waitReady(url, Date.now() + 60_000);
    if (failed !== undefined) throw failed;
    const create = async (...args) => {
      const cli = [join(ROOT, 'services/cli/dist/bin.js'), 'keys', 'create', ...args, '--json'];
      return JSON.parse((await promisify(execFile)(process.execPath, cli, { env })).stdout).key;
    };
    const key = await create('--plan', 'enterprise', '--rate-limit', '1000000');
    // A self-serve key on its plan's own terms (Build: 600 requests a minute), for a hostile neighbour.
    const neighbourKey = await create('--plan', 'build');
    return { url, key, neighbourKey, probe: gateway.probe, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

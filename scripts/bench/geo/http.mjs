// GET /v1/districts_by_point end to end: the whole stack (auth, geo, gateway; real gRPC
// and HTTP on loopback) in one process, as test/harness/stack.ts starts it, and the same
// services as separate processes, against a bare express app returning a fixed 1 KB JSON on
// the same path. Each server runs in a process of its own with the probe (lib/probe.cjs),
// which reports its event-loop delay, GC pauses and CPU; the load generator runs in another.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBoundaryFile } from '@civicgraph/geo';
import { createLogger, Lifecycle } from '@civicgraph/kit';
import { startStack as startWholeStack } from '@civicgraph/stack';
import { startServerChild } from '../lib/server-child.mjs';
import { startProcesses } from './processes.mjs';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';

const express = createRequire(new URL('../../../services/gateway/package.json', import.meta.url))('express');
const LOAD = fileURLToPath(new URL('./load.mjs', import.meta.url));
const STACK_MAIN = fileURLToPath(new URL('./stack-main.mjs', import.meta.url));
const BARE_MAIN = fileURLToPath(new URL('./bare-main.mjs', import.meta.url));
const RAW_MAIN = fileURLToPath(new URL('./raw-node-main.mjs', import.meta.url));
export const PATH = '/v1/districts_by_point';

/**
 * The whole stack (services/stack, as `civicgraph up` starts it) with workload (a)'s
 * boundaries (us-atlas + 119th CDs), at the default H3 resolution; `dataDir` (optional):
 * a data folder prepared beforehand (rest/prepare.mjs), else a temporary one.
 */
export async function startStack(shared, { dataDir } = {}) {
  const log = createLogger('bench', 'silent');
  const lifecycle = new Lifecycle(log);
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'civic-bench-stack-'));
  if (dataDir === undefined) lifecycle.defer('temp dir', () => rmSync(dir, { recursive: true, force: true }));
  try {
    const stack = await startWholeStack({
      dataDir: dir,
      serves: 'test',
      lifecycle,
      log,
      geo: {
        populationCsv: `${shared}population/derived/county-population-v2023.csv`,
        files: [parseBoundaryFile(`congressional-district=${shared}boundaries/congressional/us-cd119-20m.geojson`)],
      },
    });
    const issued = await stack.auth.keys.create({
      environment: Environment.ENVIRONMENT_TEST,
      plan: Plan.PLAN_ENTERPRISE,
      rateLimitPerMinute: 1_000_000,
      label: 'bench:geo',
      pinnedVersion: '',
    });
    // A self-serve key on its plan's own terms (Build: 600 requests a minute), for a hostile neighbour.
    const neighbour = await stack.auth.keys.create({
      environment: Environment.ENVIRONMENT_TEST,
      plan: Plan.PLAN_BUILD,
      label: 'bench:neighbour',
      pinnedVersion: '',
    });
    return { url: stack.url, key: issued.key, neighbourKey: neighbour.key, stop: () => lifecycle.stop('bench done') };
  } catch (err) {
    await lifecycle.stop('bench stack failed to start');
    throw err;
  }
}

/** The peers' fixed body: 1 KB of JSON shaped like a districts_by_point answer. */
function bareBody() {
  const region = {
    slug: 'region:co-denver-county',
    name: 'Denver County',
    level: 'county',
    fips: '08031',
    population: 716577,
    ocd_id: 'ocd-division/country:us/state:co/county:denver',
  };
  const doc = {
    point: { lat: 39.7392, lng: -104.9903 },
    data: [region, region, region, region],
    next_cursor: null,
    pad: '',
  };
  doc.pad = 'x'.repeat(1024 - JSON.stringify(doc).length);
  return JSON.stringify(doc);
}

/** A bare express 5 app: the same path, a fixed 1 KB JSON body, default settings, a stock `http.createServer(app)`. */
export async function startBare() {
  const body = bareBody();
  const app = express();
  app.get(PATH, (_req, res) => res.type('application/json').send(body));
  return listening(http.createServer(app), body);
}

/** A peer's server listening on a free loopback port: {url, bytes, stop}. */
async function listening(server, body) {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    bytes: Buffer.byteLength(body),
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** startStack in a process of its own (stack-main.mjs): {url, key, neighbourKey, probe, stop}; `where`: {dataDir?}. */
export async function spawnStack(where = {}, execArgv = []) {
  const server = await startServerChild(STACK_MAIN, { args: [JSON.stringify(where)], execArgv });
  return { ...server.info, probe: server.probe, stop: server.stop };
}

/**
 * A bare Node HTTP server (node:http, no framework) sending the bare express peer's body
 * on every path: the cost of any HTTP request through Node itself here.
 */
export async function startRawNode() {
  const body = bareBody();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  return listening(server, body);
}

/** startRawNode in a process of its own (raw-node-main.mjs): {url, bytes, probe, stop}. */
export async function spawnRawNode(execArgv = []) {
  const server = await startServerChild(RAW_MAIN, { execArgv });
  return { ...server.info, probe: server.probe, stop: server.stop };
}

/** startBare in a process of its own (bare-main.mjs): {url, bytes, probe, stop}. */
export async function spawnBare(execArgv = []) {
  const server = await startServerChild(BARE_MAIN, { execArgv });
  return { ...server.info, probe: server.probe, stop: server.stop };
}

/**
 * One load run in a child process; resolves with its summary plus what the server's probe
 * saw during the run: its event-loop delay p99 (stalls and CPU contention), its GC pauses
 * and its CPU time.
 */
export async function load(options, timeoutMs, probe) {
  await probe.start();
  const run = runChild(options, timeoutMs);
  // The probe is stopped whether or not the run failed; a failed run still rejects.
  const [summary, stats] = await Promise.allSettled([run]).then(async ([r]) => [r, await probe.stop()]);
  if (summary.status === 'rejected') throw summary.reason;
  return {
    ...summary.value,
    loopDelayP99ms: stats.loopDelayP99ms,
    gc: stats.gc,
    serverCpuUs: stats.cpuUs,
    maxRssMb: stats.maxRssMb,
  };
}

function runChild(options, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOAD, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`load child exited ${code}`));
      else resolve(JSON.parse(out));
    });
  });
}

/** Checks one request answers 200 with data, so the load measures real answers. */
async function probe(url, key) {
  const res = await fetch(`${url}${PATH}?lat=39.7392&lng=-104.9903`, {
    headers: key === undefined ? {} : { Authorization: `Bearer ${key}` },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`probe ${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text).data.length;
}

/** The run whose `key` is the median of `runs` (the lower middle for an even count). */
export function medianRun(runs, key) {
  const sorted = [...runs].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Rounds of saturated runs (after a warm-up), interleaved across the servers so a noisy
 * neighbour on this shared machine hits them alike; then interleaved rounds of each server
 * paced at a quarter of its median saturated rate. Each server's reported run is its median
 * round; the gateway / bare express ratio is the median of the per-round ratios (both
 * measured in the same round).
 */
export async function benchHttp(cfg, progress) {
  // Each server is stopped, last started first, however far starting them got.
  const running = [];
  const up = (server) => (running.push(server), server);
  try {
    const stack = up(await spawnStack());
    const procs = up(await startProcesses(cfg.shared));
    const bare = up(await spawnBare());
    const raw = up(await spawnRawNode());
    // `kind`: the gateways are measured against the bare express peer (stock, as a user
    // would run it); the bare Node peer shows what Node's HTTP server alone does here.
    const targets = [
      {
        kind: 'gateway',
        name: 'civicgraph gateway (auth + geo over gRPC, one process)',
        url: stack.url,
        key: stack.key,
        probe: stack.probe,
        regions: await probe(stack.url, stack.key),
      },
      {
        kind: 'gateway',
        name: 'civicgraph gateway (auth, geo, gateway as separate processes, as deployed)',
        url: procs.url,
        key: procs.key,
        probe: procs.probe,
        regions: await probe(procs.url, procs.key),
      },
      {
        kind: 'express',
        name: `bare express 5 (fixed ${bare.bytes} B JSON)`,
        url: bare.url,
        key: undefined,
        probe: bare.probe,
        regions: await probe(bare.url),
      },
      {
        kind: 'node',
        name: `bare Node HTTP, no framework (fixed ${raw.bytes} B JSON)`,
        url: raw.url,
        key: undefined,
        probe: raw.probe,
        regions: await probe(raw.url),
      },
    ];
    const base = {
      path: PATH,
      connections: cfg.httpConnections,
      points: cfg.httpPoints,
      seed: 7,
      duration: cfg.httpSeconds,
    };
    const limit = (s) => (s + 30) * 1000;
    const target = (t) => ({ ...base, url: t.url, key: t.key });
    for (const t of targets) {
      t.saturatedRounds = [];
      t.quarterRounds = [];
      if (cfg.httpWarmup > 0)
        await load({ ...target(t), duration: cfg.httpWarmup, seed: 99 }, limit(cfg.httpWarmup), t.probe);
    }
    for (let round = 1; round <= cfg.httpRounds; round++) {
      for (const t of targets) {
        progress(`http round ${round}/${cfg.httpRounds}: ${t.name} saturated`);
        t.saturatedRounds.push(await load({ ...target(t), seed: 7 + round }, limit(cfg.httpSeconds), t.probe));
      }
    }
    const bareTarget = targets.find((t) => t.kind === 'express');
    for (const t of targets) {
      t.saturated = medianRun(t.saturatedRounds, 'rps');
      t.ratioRounds = t.saturatedRounds.map((r, k) => r.rps / bareTarget.saturatedRounds[k].rps);
      t.ratio = [...t.ratioRounds].sort((a, b) => a - b)[Math.floor((t.ratioRounds.length - 1) / 2)];
      t.quarterRate = Math.max(1, Math.floor(t.saturated.rps / 4));
    }
    for (let round = 1; round <= cfg.httpRounds; round++) {
      for (const t of targets) {
        progress(
          `http round ${round}/${cfg.httpRounds}: ${t.name} paced at ${t.quarterRate} req/s (a quarter of saturation)`,
        );
        t.quarterRounds.push(
          await load(
            { ...target(t), mode: 'paced', rate: t.quarterRate, seed: 60 + round },
            limit(cfg.httpSeconds + 15),
            t.probe,
          ),
        );
      }
    }
    for (const t of targets) t.quarter = medianRun(t.quarterRounds, 'p99ms');
    for (const t of targets) delete t.probe;
    return {
      targets,
      connections: cfg.httpConnections,
      seconds: cfg.httpSeconds,
      points: cfg.httpPoints,
      rounds: cfg.httpRounds,
    };
  } finally {
    for (const server of running.reverse())
      await server.stop().catch((err) => progress(`stopping a server failed: ${err}`));
  }
}

// Orchestrates the REST benchmark: the demo graph and the point sets (in a child), the
// stack in a process of its own (geo/http.mjs's spawnStack over that data), the bare
// express peer in another (geo/http.mjs's spawnBare), saturated and paced load from a child
// process (geo/load.mjs, through geo/http.mjs's load, which reads each server's probe), the
// CPU per request of miss / hit / 304 (cpu.mjs), then the report.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, medianRun, PATH as BARE_PATH, spawnBare, spawnRawNode, spawnStack } from '../geo/http.mjs';
import { startProcesses } from '../geo/processes.mjs';
import { config, STATES, TARGETS } from './config.mjs';
import { timeByCategory } from '../lib/cpu-categories.mjs';
import { measureCpu } from './cpu.mjs';
import { writeRestSection } from './report.mjs';

const BALLOT = '/v1/ballot';
const PREPARE = fileURLToPath(new URL('./prepare.mjs', import.meta.url));
const started = performance.now();
const progress = (msg) =>
  process.stderr.write(`[bench:rest ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);

/** The demo graph into `dataDir` and the seeded point sets, in a child process (see prepare.mjs). */
export function prepare(dataDir, { points, cpuPoints, rounds, coldPoints, coldSets }) {
  const options = {
    dataDir,
    geoFiles: [`congressional-district=${config.shared}boundaries/congressional/us-cd119-20m.geojson`],
    states: STATES,
    points,
    cpuPoints,
    rounds,
    coldPoints,
    coldSets,
  };
  const child = spawnSync(process.execPath, [PREPARE, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  if (child.status !== 0) throw new Error(`prepare exited ${child.status ?? child.signal}`);
  return JSON.parse(child.stdout.toString('utf8'));
}

/** The demo's next general election day, as the API lists it (the demo is generated as of today). */
export async function nextGeneral(url, key) {
  const { body } = await getJson(url, key, '/v1/election_dates?state=co');
  const general = body.data.find((e) => e.type === 'general');
  if (general === undefined)
    throw new Error(`no upcoming general election in the demo graph: ${JSON.stringify(body).slice(0, 300)}`);
  return general.date;
}

export async function getJson(url, key, path) {
  const res = await fetch(`${url}${path}`, { headers: key === undefined ? {} : { Authorization: `Bearer ${key}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return { body: JSON.parse(text), bytes: Buffer.byteLength(text), cache: res.headers.get('civic-cache') };
}

/**
 * The demo graph and point sets in a scratch folder, the stack over them and the bare
 * express peer, each in a process of its own (with --expose-gc: CPU phases collect garbage
 * in the servers), handed to `fn`; everything stopped and removed afterwards. With `cpuPeers`,
 * a bare Node HTTP peer runs in a process of its own, handed to `fn` after the work folder.
 * With `demoCache`, a folder: the first run copies its prepared data folder there, before the
 * stack writes to it, and a later run starts from that copy, so prepare finds the demo loaded
 * and leaves it (loadDemoIfEmpty); the smoke tests run bench:rest and bench:graphql so.
 * With `deployed`, the services also run as separate processes, as deployed (geo/processes.mjs),
 * over a copy of the prepared data folder, handed to `fn` last.
 */
export async function withDemoStack(name, sets, progress, fn, { cpuPeers = false, demoCache, deployed = false } = {}) {
  const work = mkdtempSync(join(tmpdir(), `civic-bench-${name}-`));
  try {
    const dataDir = join(work, 'data');
    const cached = demoCache !== undefined && existsSync(demoCache);
    if (cached) cpSync(demoCache, dataDir, { recursive: true });
    progress(`demo graph${cached ? ` (loaded before, from ${demoCache})` : ''} and point sets (child process)`);
    const prep = prepare(dataDir, sets);
    if (demoCache !== undefined && !cached) cpSync(dataDir, demoCache, { recursive: true });
    progress(
      `demo graph: ${prep.demo.nodes} nodes, ${prep.demo.edges} edges in ${(prep.demo.ms / 1000).toFixed(1)} s; starting the stack`,
    );
    // Copied before the stack starts and writes to its own.
    const deployedDir = join(work, 'deployed');
    if (deployed) cpSync(dataDir, deployedDir, { recursive: true });
    // Each server is stopped, last started first, however far starting them got.
    const running = [];
    const up = (server) => (running.push(server), server);
    try {
      const stack = up(await spawnStack({ dataDir }, ['--expose-gc', ...process.execArgv]));
      const bare = up(await spawnBare(['--expose-gc']));
      const raw = cpuPeers ? up(await spawnRawNode(['--expose-gc'])) : undefined;
      const procs = deployed
        ? up(await startProcesses(config.shared, { dataDir: deployedDir, execArgv: process.execArgv }))
        : undefined;
      return await fn(stack, bare, prep, work, raw, procs);
    } finally {
      for (const server of running.reverse())
        await server.stop().catch((err) => progress(`stopping a server failed: ${err}`));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Where a never-asked ballot's time goes: one more paced round at the rate, on points of its own,
 * under the stack's sampling profiler (not among the measured rounds: the profiler slows what it
 * watches), summed by the code that ran (lib/cpu-categories.mjs).
 */
async function profiledColdRound(gw, base, file, queries) {
  writeFileSync(file, `${queries.join('\n')}\n`);
  progress(`profiled round on points never asked before: gateway at ${config.rate} req/s`);
  await gw.probe.profile();
  const run = await load(
    { ...base, queries: file, sequential: true, mode: 'paced', rate: config.rate, seed: 49 },
    (config.seconds + 45) * 1000,
    gw.probe,
  );
  const time = timeByCategory(await gw.probe.profiled());
  return { ...time, requests: run.total, p99ms: run.p99ms };
}

/**
 * Paced rounds on points never asked before, the `servers` interleaved, each run on a set of
 * its own (`sets` of dated queries, taken in order): every request a response-cache miss.
 * Each server's runs go to its `coldRounds`, the median (by p99) to its `cold`.
 */
export async function neverAskedRounds(servers, { rounds, rate, sets, work, request, limitMs }, progress) {
  if (sets.length < rounds * servers.length)
    throw new Error(`${sets.length} sets of never-asked points prepared, ${rounds * servers.length} needed`);
  for (const t of servers) t.coldRounds = [];
  let set = 0;
  for (let round = 1; round <= rounds; round++) {
    for (const t of servers) {
      const cold = join(work, `cold-${set}.txt`);
      writeFileSync(cold, `${sets[set++].join('\n')}\n`);
      progress(`paced round ${round}/${rounds} on points never asked before: ${t.id} at ${rate} req/s`);
      const paced = { queries: cold, sequential: true, mode: 'paced', rate, seed: 40 + round };
      t.coldRounds.push(await load({ ...request(t), ...paced }, limitMs, t.probe));
    }
  }
  for (const t of servers) t.cold = medianRun(t.coldRounds, 'p99ms');
}

export async function main() {
  return withDemoStack(
    'rest',
    {
      points: config.points,
      cpuPoints: config.cpuPoints,
      rounds: config.rounds,
      coldPoints: config.rate * config.seconds,
      // a set per round for each topology; the last set is the profiled round's
      coldSets: 2 * config.rounds + 1,
    },
    progress,
    bench,
    { cpuPeers: true, demoCache: config.demoCache, deployed: true },
  );
}

async function bench(stack, bare, prep, work, raw, deployed) {
  const date = await nextGeneral(stack.url, stack.key);
  const dated = (qs) => qs.map((q) => `${q}&date=${date}`);
  const queries = join(work, 'queries.txt');
  writeFileSync(queries, `${dated(prep.queries.main).join('\n')}\n`);
  const probe = await getJson(stack.url, stack.key, `${BALLOT}?lat=39.7392&lng=-104.9903&date=${date}`);
  if (!(probe.body.contests?.length > 0))
    throw new Error(`probe: the Denver ballot on ${date} has no contests: ${JSON.stringify(probe.body).slice(0, 300)}`);
  const bareProbe = await getJson(bare.url, undefined, BARE_PATH);
  progress(`ballot date ${date}; Denver ballot: ${probe.body.contests.length} contests, ${probe.bytes} B`);

  const targets = [
    {
      id: 'gateway',
      name: 'civicgraph gateway, `GET /v1/ballot` (auth, geo, graph over gRPC, one process)',
      url: stack.url,
      key: stack.key,
      path: BALLOT,
      probe: stack.probe,
    },
    {
      id: 'deployed',
      name: 'civicgraph gateway, `GET /v1/ballot` (auth, geo, graph, results, gateway as separate processes, as deployed)',
      url: deployed.url,
      key: deployed.key,
      path: BALLOT,
      probe: deployed.probe,
    },
    {
      id: 'bare',
      name: `bare express 5 (fixed ${bare.bytes} B JSON)`,
      url: bare.url,
      key: undefined,
      path: BARE_PATH,
      bytes: bareProbe.bytes,
      probe: bare.probe,
    },
  ];
  const base = { queries, connections: config.connections, duration: config.seconds };
  const limit = (s) => (s + 30) * 1000;
  const target = (t) => ({ ...base, url: t.url, key: t.key, path: t.path });
  for (const t of targets) {
    t.saturatedRounds = [];
    t.pacedRounds = [];
    if (config.warmup > 0) {
      progress(`warm-up: ${t.id}`);
      await load({ ...target(t), duration: config.warmup, seed: 99 }, limit(config.warmup), t.probe);
    }
  }
  for (let round = 1; round <= config.rounds; round++) {
    for (const t of targets) {
      progress(`saturated round ${round}/${config.rounds}: ${t.id}`);
      t.saturatedRounds.push(await load({ ...target(t), seed: 7 + round }, limit(config.seconds), t.probe));
    }
  }
  for (let round = 1; round <= config.rounds; round++) {
    for (const t of targets) {
      progress(`paced round ${round}/${config.rounds}: ${t.id} at ${config.rate} req/s`);
      t.pacedRounds.push(
        await load(
          { ...target(t), mode: 'paced', rate: config.rate, seed: 20 + round },
          limit(config.seconds + 15),
          t.probe,
        ),
      );
    }
  }
  await neverAskedRounds(
    targets.filter((t) => t.id !== 'bare'),
    { ...config, sets: prep.queries.cold.map(dated), work, request: target, limitMs: limit(config.seconds + 15) },
    progress,
  );
  const gw = targets[0];
  gw.coldProfile = await profiledColdRound(
    gw,
    target(gw),
    join(work, 'cold-profiled.txt'),
    dated(prep.queries.cold.at(-1)),
  );
  const bareT = targets.find((t) => t.id === 'bare');
  for (const t of targets) {
    t.saturated = medianRun(t.saturatedRounds, 'rps');
    t.paced = medianRun(t.pacedRounds, 'p99ms');
    t.ratioRounds = t.saturatedRounds.map((r, k) => r.rps / bareT.saturatedRounds[k].rps);
    t.ratio = [...t.ratioRounds].sort((a, b) => a - b)[Math.floor((t.ratioRounds.length - 1) / 2)];
  }

  const paths = (qs) => dated(qs).map((q) => `${BALLOT}?${q}`);
  const cpu = await measureCpu(
    {
      url: stack.url,
      key: stack.key,
      server: stack.probe,
      connections: config.cpuConnections,
      passes: config.cpuPasses,
      sets: prep.queries.cpu.map(paths),
      warm: paths(prep.queries.warm),
      bare: { url: bare.url, path: BARE_PATH, probe: bare.probe },
      raw: { url: raw.url, path: BARE_PATH, probe: raw.probe },
      idleMs: config.cpuQuietMs,
      settleMs: config.cpuQuietMs,
    },
    progress,
  );
  for (const t of targets) delete t.probe;

  const run = {
    config,
    targets: TARGETS,
    states: STATES,
    date,
    demo: prep.demo,
    probe: { contests: probe.body.contests.length, bytes: probe.bytes },
    servers: targets,
    cpu,
    seconds: (performance.now() - started) / 1000,
  };
  writeRestSection(config.output, run);
  progress(`wrote ${config.output}`);
  return run;
}

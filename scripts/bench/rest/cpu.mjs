// CPU per request of GET /v1/ballot, read in the server process by its probe (the whole
// stack runs in that one process, so it is the CPU of every service a request touches):
// process.cpuUsage() around a closed loop of requests sent by a forked child
// (cpu-client.mjs), less that process's idle CPU over the same wall time. Three kinds of request on the same points:
//   miss  — 200, first request for a point (Civic-Cache: miss: geo + graph over gRPC, render, ETag);
//   hit   — 200 from the gateway's response cache (Civic-Cache: hit);
//   304   — the same request with If-None-Match of the ETag it was given.
import { fork, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLIENT = fileURLToPath(new URL('./cpu-client.mjs', import.meta.url));
const GRPC_FLOOR = fileURLToPath(new URL('./grpc-floor.mjs', import.meta.url));

/**
 * CPU of one plain grpc-js unary call here (grpc-floor.mjs, in a process of its own): as many
 * callers at once as the closed loop has connections, a 1 KB answer (a point lookup's size).
 */
function grpcFloor(concurrency) {
  const child = spawnSync(process.execPath, [GRPC_FLOOR, JSON.stringify({ concurrency })], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`grpc-floor exited ${child.status ?? child.signal}: ${child.stderr}`);
  return JSON.parse(child.stdout);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Collects garbage in the server (started with --expose-gc), then waits: V8 sweeps on
 * background threads after a full collection, and process.cpuUsage() counts every thread
 * (about 60 ms of CPU in the next second here).
 */
export async function collect(server, settleMs) {
  await server.gc();
  await server.gc();
  await sleep(settleMs);
}

/** CPU µs the server spent between two readings of its probe. */
function spent(c0, c1) {
  return { user: c1.user - c0.user, system: c1.system - c0.system };
}

/** The forked client, and a way to wait for its next message of a kind; `server` is the probe of the server it loads. */
async function startClient(options, server, settleMs) {
  const child = fork(CLIENT, [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map();
  let failure;
  child.on('message', (m) => {
    if (m.cmd === 'error') failure = new Error(`cpu client: ${m.message}`);
    const w = waiting.get(m.cmd);
    if (failure !== undefined) for (const x of waiting.values()) x.reject(failure);
    else if (w !== undefined) {
      waiting.delete(m.cmd);
      w.resolve(m);
    }
  });
  child.on('exit', (code) => {
    for (const x of waiting.values()) x.reject(new Error(`cpu client exited ${code}`));
  });
  const next = (cmd) =>
    new Promise((resolve, reject) => (failure !== undefined ? reject(failure) : waiting.set(cmd, { resolve, reject })));
  await next('started');
  return {
    async phase(phase) {
      await collect(server, settleMs);
      const ready = next('ready');
      child.send({ cmd: 'prepare', phase });
      await ready;
      const done = next('done');
      const tally = next('tally');
      const t0 = process.hrtime.bigint();
      const c0 = await server.cpu();
      child.send({ cmd: 'go' });
      await done;
      const c = spent(c0, await server.cpu());
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      return { wallMs, userUs: c.user, systemUs: c.system, tally: (await tally).tally };
    },
    stop() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.connected) child.send({ cmd: 'exit' });
      else child.kill();
      return exited;
    },
  };
}

/** The server's CPU while nothing is sent (timers, relays, pollers), per ms of wall time. */
export async function idle(server, ms, settleMs) {
  await collect(server, settleMs);
  const t0 = process.hrtime.bigint();
  const c0 = await server.cpu();
  await sleep(ms);
  const c = spent(c0, await server.cpu());
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  return { userUsPerMs: c.user / wallMs, systemUsPerMs: c.system / wallMs };
}

/** Per-request µs of one phase, idle CPU subtracted, and whether every answer was the expected one. */
function perRequest(p, base, expect) {
  const n = p.tally.requests;
  const user = Math.max(0, p.userUs - base.userUsPerMs * p.wallMs) / n;
  const system = Math.max(0, p.systemUs - base.systemUsPerMs * p.wallMs) / n;
  const ok =
    (p.tally.status[expect.status] ?? 0) === n &&
    (p.tally.cache[expect.cache] ?? 0) === n &&
    p.tally.etagMismatch === 0;
  return {
    requests: n,
    us: user + system,
    userUs: user,
    systemUs: system,
    wallMs: p.wallMs,
    reqPerSec: (n * 1000) / p.wallMs,
    bytesPerRequest: p.tally.bytes / n,
    ok,
    status: p.tally.status,
    cache: p.tally.cache,
    etagMismatch: p.tally.etagMismatch,
    contests: p.tally.contests,
    regions: p.tally.regions,
  };
}

/**
 * Rounds of (idle baseline, miss, hit, 304, and the peers' 200s as the floors of any HTTP
 * request here) on a fresh point set each, after an unrecorded warm-up of all of them on a
 * set of its own. `sets` and `warm` are arrays of request paths; `server` is the stack's
 * probe; `bare` and `raw` are { url, path, probe } of the bare express and bare Node peers (processes
 * of their own). The idle baseline is taken in each server's own process.
 */
export async function measureCpu(
  { url, key, server, connections, passes, sets, warm, bare, raw, idleMs = 1_000, settleMs = 1_000 },
  progress,
) {
  const client = await startClient({ url, key, connections }, server, settleMs);
  const peers = {};
  for (const [name, peer] of Object.entries({ bare, raw }))
    peers[name] = {
      client: await startClient({ url: peer.url, key, connections }, peer.probe, settleMs),
      path: peer.path,
    };
  const peerPhase = (name, n) => peers[name].client.phase({ paths: [peers[name].path], passes: n, conditional: false });
  try {
    progress('cpu: warm-up (miss, hit, 304 on a set of their own; the peers)');
    await client.phase({ paths: warm, passes: 1, recordEtags: true });
    await client.phase({ paths: warm, passes, conditional: false });
    await client.phase({ paths: warm, passes, conditional: true });
    await peerPhase('bare', warm.length * passes);
    await peerPhase('raw', warm.length * passes);
    const rounds = [];
    for (const [k, paths] of sets.entries()) {
      const n = paths.length * passes;
      progress(
        `cpu round ${k + 1}/${sets.length}: idle, miss ×${paths.length}, hit ×${n}, 304 ×${n}, bare express ×${n}, bare Node ×${n}, plain gRPC calls`,
      );
      const base = await idle(server, idleMs, settleMs);
      const bareBase = await idle(bare.probe, idleMs, settleMs);
      const rawBase = await idle(raw.probe, idleMs, settleMs);
      const miss = perRequest(await client.phase({ paths, passes: 1, recordEtags: true }), base, {
        status: 200,
        cache: 'miss',
      });
      const hit = perRequest(await client.phase({ paths, passes, conditional: false }), base, {
        status: 200,
        cache: 'hit',
      });
      const notModified = perRequest(await client.phase({ paths, passes, conditional: true }), base, {
        status: 304,
        cache: 'hit',
      });
      const floor = perRequest(await peerPhase('bare', n), bareBase, { status: 200, cache: 'none' });
      const node = perRequest(await peerPhase('raw', n), rawBase, { status: 200, cache: 'none' });
      const grpc = grpcFloor(connections);
      rounds.push({
        grpc,
        idle: base,
        miss,
        hit,
        notModified,
        bare: floor,
        raw: node,
        vsHit: notModified.us / hit.us,
        vsMiss: notModified.us / miss.us,
      });
    }
    return { rounds, connections, passes, points: sets[0]?.length ?? 0, idleMs, settleMs };
  } finally {
    await client.stop();
    for (const peer of Object.values(peers)) await peer.client.stop();
  }
}

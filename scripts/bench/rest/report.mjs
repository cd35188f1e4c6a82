// The REST section of BENCHMARKS.md: targets (met or not, from this run's numbers), the
// per-round tables and the method.
import { cpus } from 'node:os';
import { writeSection } from '../lib/section.mjs';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const f1 = (x) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : int.format(x));
const pct = (x) => `${(100 * x).toFixed(0)} %`;
const yes = (ok) => (ok ? '**met**' : '**not met**');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const kb = (bytes) => (bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${int.format(bytes)} B`);

/** Writes this benchmark's section of BENCHMARKS.md. */
export function writeRestSection(path, run) {
  writeSection(path, 'rest', renderRestSection(run));
}

function hitShare(r) {
  const n = r.cache.hit + r.cache.miss;
  return n === 0 ? NaN : r.cache.hit / n;
}

function hitRatio(r) {
  const x = hitShare(r);
  return Number.isNaN(x) ? '—' : pct(x);
}

const bad = (r) => r.errors + r.timeouts + r.non2xx;
/** Requests the paced client schedules in a run, and those it never saw answered nor failed (see Method). */
const sent = (run) => Math.floor(run.config.rate * run.config.seconds);
const lost = (run, r) => Math.max(0, sent(run) - r.total - r.errors);
const gc = (r) =>
  `${f1(r.gc.maxMs)} / ${int.format(r.gc.totalMs)} (${
    r.gc.over15ms === 0
      ? 'none'
      : Object.entries(r.gc.long)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')
  })`;

/** Per kind of request, the median over rounds of its µs, and the median of the per-round ratios. */
export function cpuSummary(cpu) {
  const pick = (kind) => ({
    us: median(cpu.rounds.map((r) => r[kind].us)),
    userUs: median(cpu.rounds.map((r) => r[kind].userUs)),
    systemUs: median(cpu.rounds.map((r) => r[kind].systemUs)),
    bytes: median(cpu.rounds.map((r) => r[kind].bytesPerRequest)),
  });
  return {
    miss: pick('miss'),
    hit: pick('hit'),
    notModified: pick('notModified'),
    bare: pick('bare'),
    raw: pick('raw'),
    // Runs before this field was recorded have none.
    grpc: cpu.rounds.every((r) => r.grpc !== undefined) ? median(cpu.rounds.map((r) => r.grpc.usPerCall)) : undefined,
    vsHit: median(cpu.rounds.map((r) => r.vsHit)),
    vsMiss: median(cpu.rounds.map((r) => r.vsMiss)),
    allOk: cpu.rounds.every((r) => r.miss.ok && r.hit.ok && r.notModified.ok && r.bare.ok && r.raw.ok),
  };
}

/** Where a gateway's services run: in one process (as `civicgraph up`), or each in its own (as deployed). */
const topology = (gw) => (gw.id === 'deployed' ? 'separate processes, as deployed' : 'one process');

function targetTable(run, gateways, bare, cpu) {
  const t = run.targets;
  const atRate = run.config.rate === t.rate;
  const peer = `; the bare express peer paced at the same rate in the same rounds: p99 ${bare.pacedRounds.map((r) => f1(r.p99ms)).join(', ')} ms`;
  const cachedRow = (gw) => {
    const cachedOnly = gw.pacedRounds.every((r) => hitShare(r) >= 0.99);
    const hits = `${gw.pacedRounds.map(hitRatio).join(', ')} response-cache hits${cachedOnly ? ` (the saturated runs before had asked for the points: this is the cached path${gw.id === 'gateway' ? `; a miss costs ${f1(cpu.miss.us / 1000)} ms of CPU, below` : ''})` : ''}`;
    const paced = gw.pacedRounds.map((r) => f1(r.p99ms)).join(', ');
    const errors = gw.pacedRounds.reduce((n, r) => n + bad(r), 0);
    const unanswered = gw.pacedRounds.reduce((n, r) => n + lost(run, r), 0);
    return `| \`/v1/ballot\` on the demo data: p99 ≤ ${t.p99ms} ms at ${t.rate} req/s (open loop); ${topology(gw)} | median round p99 **${f1(gw.paced.p99ms)} ms** (rounds ${paced}), p50 ${f1(gw.paced.p50ms)} ms, at ${int.format(run.config.rate)} req/s; ${hits}${errors > 0 ? `; ${errors} errors / non-2xx` : ''}${unanswered > 0 ? `; ${unanswered} requests never answered (the paced client's, see Method)` : ''}${peer} | ${atRate ? `${yes(gw.paced.p99ms <= t.p99ms && errors === 0)}${cachedOnly ? ' on cached answers' : ''}` : `**not measured** (paced at ${run.config.rate}, BENCH_REST_RATE)`} |`;
  };
  const coldRow = (gw) => {
    const errors = gw.coldRounds.reduce((n, r) => n + bad(r), 0);
    return `| \`/v1/ballot\` p99 ≤ ${t.coldP99ms} ms at ${t.rate} req/s on points never asked before (each request a response-cache miss: a geo call, and a graph call for districts the ballot memo does not hold); ${topology(gw)} | median round p99 **${f1(gw.cold.p99ms)} ms** (rounds ${gw.coldRounds.map((r) => f1(r.p99ms)).join(', ')}), p50 ${f1(gw.cold.p50ms)} ms; ${gw.coldRounds.map(hitRatio).join(', ')} response-cache hits${errors > 0 ? `; ${errors} errors / non-2xx` : ''} | ${atRate ? yes(gw.cold.p99ms <= t.coldP99ms && errors === 0) : '**not measured**'} |`;
  };
  const saturatedRow = (gw) =>
    `| saturation req/s beside a bare express handler, same run; ${topology(gw)} | ${int.format(gw.saturated.rps)} vs ${int.format(bare.saturated.rps)} req/s: ${pct(gw.ratio)} (median of the per-round ratios ${gw.ratioRounds.map(pct).join(', ')}, at ${gw.saturatedRounds.map(hitRatio).join(', ')} response-cache hits) | reported |`;
  return [
    '| target | this run | |',
    '|---|---|---|',
    ...gateways.map(cachedRow),
    ...gateways.map(coldRow),
    ...gateways.map(saturatedRow),
    `| CPU of a 304 against the matching 200 from the response cache (the ${pct(t.notModifiedShare)} target is retired with the revalidation front, issue 23); one process | 304 ${f1(cpu.notModified.us)} µs vs 200 from the response cache ${f1(cpu.hit.us)} µs: **${pct(cpu.vsHit)}** (median of the per-round ratios ${run.cpu.rounds.map((r) => pct(r.vsHit)).join(', ')}) | for reference${cpu.allOk ? '' : ' (**some answers were not as expected**)'} |`,
    `| the same, against the 200 a cache miss costs | 304 ${f1(cpu.notModified.us)} µs vs miss 200 ${f1(cpu.miss.us)} µs: ${pct(cpu.vsMiss)} (rounds ${run.cpu.rounds.map((r) => pct(r.vsMiss)).join(', ')}) | ${cpu.vsMiss <= t.notModifiedShare ? 'within 25 %' : 'over 25 %'} (for reference) |`,
  ].join('\n');
}

function saturatedTable(run) {
  const lines = [
    `Saturated: autocannon, ${run.config.connections} connections, ${run.config.seconds} s per run, ${run.config.rounds} rounds interleaved with the bare express peer (after a ${run.config.warmup} s unrecorded warm-up each). Latencies in ms.`,
    '',
    '| server | round | req/s | p50 | p99 | max | server event-loop delay p99 | server GC pauses: max / total ms (those > 15 ms, by kind) | errors / non-2xx | response-cache hits |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of run.servers) {
    s.saturatedRounds.forEach((r, k) => {
      const mark = r === s.saturated ? ' (median)' : '';
      lines.push(
        `| ${s.name} | ${k + 1}${mark} | ${int.format(r.rps)} | ${r.p50ms} | ${r.p99ms} | ${r.maxMs} | ${f1(r.loopDelayP99ms)} | ${gc(r)} | ${bad(r)} | ${s.id === 'bare' ? '—' : hitRatio(r)} |`,
      );
    });
  }
  return lines.join('\n');
}

function pacedTable(run) {
  const lines = [
    `Paced: the open-loop client at exactly ${int.format(run.config.rate)} req/s, ${run.config.connections} connections, ${run.config.seconds} s per run, ${run.config.rounds} rounds interleaved with the bare express peer at the same rate; then both gateways, interleaved, without the bare peer, on points never asked before (see Method). Latencies in ms, from each request's scheduled send time.`,
    '',
    '| server | round | answered / sent (never answered) | p50 | p99 | max | server event-loop delay p99 | server GC pauses: max / total ms (those > 15 ms, by kind) | load client loop delay p99 / max | errors / non-2xx | response-cache hits |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of run.servers) {
    const row = (name, r, k, median) =>
      `| ${name} | ${k + 1}${r === median ? ' (median)' : ''} | ${int.format(r.total)} / ${int.format(sent(run))} (${int.format(lost(run, r))}) | ${f1(r.p50ms)} | ${f1(r.p99ms)} | ${f1(r.maxMs)} | ${f1(r.loopDelayP99ms)} | ${gc(r)} | ${f1(r.clientLoopDelayP99ms)} / ${f1(r.clientLoopDelayMaxMs)} | ${bad(r)} | ${s.id === 'bare' ? '—' : hitRatio(r)} |`;
    s.pacedRounds.forEach((r, k) => lines.push(row(s.name, r, k, s.paced)));
    // The target's rounds on points never asked before, after the interleaved ones.
    s.coldRounds?.forEach((r, k) => lines.push(row(`${s.name}, points never asked before`, r, k, s.cold)));
  }
  return lines.join('\n');
}

function cpuTable(run, sum) {
  const c = run.cpu;
  const cell = (k) => `${f1(k.us)} (${f1(k.userUs)} + ${f1(k.systemUs)})`;
  const kinds = (r) => [r.miss, r.hit, r.notModified, r.bare, r.raw];
  const lines = [
    `CPU of the server process per request, µs (user + system), idle CPU subtracted; closed loop of ${c.connections} keep-alive connections from a child process; per round ${int.format(c.points)} fresh points asked once (miss: a geo call, and a graph call where the ballot memo does not hold the point's districts), then ${c.passes} passes over them (hit), then ${c.passes} passes with \`If-None-Match\` (304); then as many requests to the bare express peer and to the bare Node peer (the cost of any HTTP request through express, and through Node's HTTP server alone, here).`,
    '',
    '| round | idle (µs CPU per s) | miss 200 | hit 200 | 304 | bare express 200 | bare Node 200 | 304 / hit 200 | 304 / miss 200 | req/s miss / hit / 304 / bare express / bare Node | every answer as expected |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  c.rounds.forEach((r, k) => {
    const idle = 1000 * (r.idle.userUsPerMs + r.idle.systemUsPerMs);
    const ok = kinds(r).every((x) => x.ok);
    const what = (x) => [x.status, x.cache, x.etagMismatch];
    lines.push(
      `| ${k + 1} | ${int.format(idle)} | ${kinds(r).map(cell).join(' | ')} | ${pct(r.vsHit)} | ${pct(r.vsMiss)} | ${kinds(
        r,
      )
        .map((x) => int.format(x.reqPerSec))
        .join(' / ')} | ${ok ? 'yes' : `**no**: ${JSON.stringify(kinds(r).map(what))}`} |`,
    );
  });
  lines.push(
    `| **median** | | ${[sum.miss, sum.hit, sum.notModified, sum.bare, sum.raw].map(cell).join(' | ')} | **${pct(sum.vsHit)}** | **${pct(sum.vsMiss)}** | | |`,
  );
  const contests = c.rounds.flatMap((r) => r.miss.contests);
  const regions = c.rounds.flatMap((r) => r.miss.regions);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  lines.push(
    '',
    `Bytes per response (body): 200 ${kb(sum.hit.bytes)} (miss ${kb(sum.miss.bytes)}), 304 ${kb(sum.notModified.bytes)}. The ${int.format(contests.length)} miss ballots: ${mean(contests).toFixed(1)} contests on average (${Math.min(...contests)}–${Math.max(...contests)}), over ${mean(regions).toFixed(1)} electing regions per point.`,
  );
  const quarter = sum.hit.us * 0.25;
  lines.push(
    '',
    `The floors: a request through a stock express 5 server (the bare express peer) costs ${f1(sum.bare.us)} µs here, and through Node's HTTP server alone ${f1(sum.raw.us)} µs. ` +
      `The gateway's 304 goes through stock express and the edge (key, version, rate) like any request: ${f1(sum.notModified.us)} µs, ${aboveFloor(sum.notModified.us - sum.raw.us)}. ` +
      `25 % of the hit 200 is ${f1(quarter)} µs, ${quarter < sum.raw.us ? 'below' : 'above'} what Node's HTTP server alone costs per request here.` +
      (sum.grpc === undefined
        ? ''
        : ` A plain grpc-js unary call, client and server in one process as the stack runs them (\`rest/grpc-floor.mjs\`: no interceptor, no protobuf, ${c.connections} callers at once, a 1 KB answer), costs ${f1(sum.grpc)} µs of CPU here (median of ${c.rounds.map((r) => f1(r.grpc.usPerCall)).join(', ')}): a miss makes one (the point lookup), and a second where the ballot memo does not hold the point's districts; the miss 200 less the hit 200 is ${f1(sum.miss.us - sum.hit.us)} µs.`),
  );
  return lines.join('\n');
}

/** Categories shown by name in the profile table; the rest are summed on one line. */
const PROFILE_ROWS = 16;

/** Where a never-asked ballot's time goes: the profiled round's busy time by the code that ran it. */
function profileTable(run, p) {
  const perRequest = (ms) => f1((ms * 1000) / p.requests);
  const row = (name, ms) => `| ${name} | ${f1(ms)} | ${perRequest(ms)} | ${pct(ms / p.busyMs)} |`;
  const shown = p.categories.slice(0, PROFILE_ROWS);
  const rest = p.categories.slice(PROFILE_ROWS);
  return [
    `One more paced round at ${int.format(run.config.rate)} req/s on ${int.format(p.requests)} points of its own, never asked before, under the stack process's sampling profiler (every 0.25 ms; not among the measured rounds, as the profiler slows what it watches: this round's p99 was ${f1(p.p99ms)} ms). The main thread was busy ${int.format(p.busyMs)} ms and idle ${int.format(p.idleMs)} ms: ${perRequest(p.busyMs)} µs per request, by the code that ran (a builtin such as \`JSON.stringify\` counts for its caller; other threads, such as V8's concurrent marking, are not sampled).`,
    '',
    '| code | ms in the round | µs per request | share of busy |',
    '|---|---|---|---|',
    ...shown.map((c) => row(c.name.replace(/\|/g, '\\|'), c.ms)),
    ...(rest.length === 0
      ? []
      : [
          row(
            `${rest.length} others`,
            rest.reduce((a, c) => a + c.ms, 0),
          ),
        ]),
    `| **busy** | **${f1(p.busyMs)}** | **${perRequest(p.busyMs)}** | 100 % |`,
  ].join('\n');
}

/** Where the 304 sits against the bare Node 200 (which also sends a 1 KB body, so it can cost more). */
function aboveFloor(d) {
  return d >= 0
    ? `${f1(d)} µs above the bare Node 200`
    : `${f1(-d)} µs below the bare Node 200, which also sends a 1 KB body`;
}

/** The whole section (without markers). */
export function renderRestSection(run) {
  const gw = run.servers.find((s) => s.id === 'gateway');
  const gateways = run.servers.filter((s) => s.id !== 'bare');
  const bare = run.servers.find((s) => s.id === 'bare');
  const sum = cpuSummary(run.cpu);
  const cfg = run.config;
  const flags = process.execArgv.filter((a) => a.startsWith('--max-semi-space-size')).join(' ') || 'default flags';
  return [
    '## REST: `GET /v1/ballot` end to end, and what a 304 costs',
    '',
    `Written by \`npm run bench:rest\` (scripts/bench/rest.mjs) on ${new Date().toISOString().slice(0, 10)} in ${run.seconds.toFixed(0)} s: ` +
      `${cpus().length} × ${cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'unknown'}, Node ${process.version} (${flags}). ` +
      `Demo graph as \`civicgraph up\` loads it: ${int.format(run.demo.nodes)} nodes, ${int.format(run.demo.edges)} edges (loaded in ${(run.demo.ms / 1000).toFixed(1)} s). ` +
      `Ballots for the demo's next general election day, ${run.date}, at ${int.format(cfg.points)} distinct seeded points uniform over ${run.states.map((s) => s.toUpperCase()).join(', ')} (evenly split). The machine is shared, so numbers are noisy.`,
    '',
    targetTable(run, gateways, bare, sum),
    '',
    '### Saturated',
    '',
    saturatedTable(run),
    '',
    `${gateways.map((g) => `${g.name} / bare express: ${pct(g.ratio)}`).join('; ')} of the requests per second (medians of the per-round ratios). The ballot body is ${kb(sum.hit.bytes)} on average against the peer's fixed ${kb(bare.bytes)}.`,
    '',
    `### Paced at ${int.format(cfg.rate)} req/s`,
    '',
    pacedTable(run),
    '',
    '### CPU per request: miss, hit, 304',
    '',
    cpuTable(run, sum),
    '',
    "### Where a never-asked ballot's time goes",
    '',
    profileTable(run, gw.coldProfile),
    '',
    '### Method',
    '',
    `- **System**: auth, geo, graph, results and gateway in one process of their own, as \`civicgraph up\` runs them, started by \`scripts/bench/geo/http.mjs\`'s \`spawnStack\` (\`startStack\` in \`geo/stack-main.mjs\`; each from its own config reader fed a private environment; real gRPC and HTTP on 127.0.0.1; an enterprise key, 1,000,000 requests/min; the orchestrating script, the load and the bare express peer run in other processes), geo serving us-atlas states and counties and the 119th Congress districts (1:20M) at its default H3 resolution. The graph is the synthetic demo \`civicgraph up\` loads: the CLI's own \`loadDemoIfEmpty\` (\`generateDemo\` over \`demoRegions\` of the same boundary files, as of today), run in a child process into the stack's data directory before the stack starts, with its outbox relayed, so the graph service opens it from disk as after a restart of \`up\`. The benchmark runs with V8's default young generation, as \`npm start\` and the Docker image run \`up\` (with \`--max-semi-space-size=64\` the paced p99 was about four times worse on 2026-11-23), and with \`--expose-gc\` (for the CPU phases below). Each server process carries a probe (\`scripts/bench/lib/probe.cjs\`, preloaded, answering over IPC) that reports its event-loop delay, GC pauses and CPU time. The same services also run each in a process of its own, from their own \`main.js\`, as deployed (docker-compose, Kubernetes), configured by environment (\`geo/processes.mjs\` \`startProcesses\`), over a copy of the prepared data folder made before either started, geo at the same default resolution; their gateway carries a probe. Both gateways are measured in the same rounds; the CPU phases and the profile are the one process's.`,
    `- **Points**: ${int.format(cfg.points)} distinct points, uniform over each state's area (rejection sampling in its bounding box against the us-atlas outline), rounded to 5 decimals; each load request draws one at random, with \`date=${run.date}\`. Every demo state has contests (U.S. Senator, Governor, its U.S. Representatives, the President in a presidential year, and County Commissioner and Sheriff in its first three counties). The gateway's response cache (10,000 entries, five minutes, keyed by the caller's policy, the API version, the day and the request) holds a point's ballot after its first request, so the hit ratio climbs as the runs cover the set; it is reported per run from the \`Civic-Cache\` header.`,
    `- **Saturated and paced**: the geo benchmark's harness (\`geo/http.mjs\` \`load\`, \`geo/load.mjs\` in a separate process with autocannon 8, or the open-loop paced client \`geo/paced-client.mjs\`: evenly spaced requests, latency counted from each request's scheduled send time, 1 ms timer granularity; the load process's own event-loop delay is shown beside it, as its stalls count as latency). The bare express peer is geo's: express 5 (the gateway's own copy) in a process of its own, one route, a fixed 1 KB JSON body. Server event-loop delay: \`monitorEventLoopDelay\` in the server process during the run, read by its probe; server GC pauses: a \`gc\` PerformanceObserver in the server process during the run, read by its probe (main-thread pause of each collection; in the stack a pause stalls every service, as they share the process). The reported round is the median one (by req/s saturated, by p99 paced). *Never answered*: requests the paced client scheduled but saw neither answered nor failed; it waits for them until 15 s after the run and leaves them out of the latencies. The client takes idle connections oldest first and replaces any the server closed, so none should be; any there are counted here, not hidden: each is a request whose latency the percentiles do not include. *Points never asked before*: after the paced rounds, one more paced round per round for each gateway (the one process, then the separate processes), at the same rate, on a fresh set of rate × seconds points sent in order, each once, so every request misses the response cache and costs a geo call; the graph is called only for a set of districts the gateway's ballot memo does not hold (the points are new, their districts mostly not: the saturated runs asked about most of them).`,
    `- **CPU per request**: \`process.cpuUsage()\` of the server process (which runs every service, so a miss counts geo's and graph's work too), read by its probe just before a forked client (\`rest/cpu-client.mjs\`, node:http, ${run.cpu.connections} keep-alive connections opened before the window) starts a closed loop, and when it reports the loop done; less that process's idle CPU over the same wall time (measured for ${run.cpu.idleMs} ms before each round: pollers and relays). Garbage is collected in the server (through its probe) before each phase and the idle window, followed by ${run.cpu.settleMs} ms of quiet, because \`cpuUsage\` counts every thread and V8 sweeps on background threads after a full collection. The bare express and bare Node phases send the same number of requests to geo's peers (\`geo/http.mjs\` \`startBare\`, \`startRawNode\`: the same 1 KB body, express 5 with default settings and \`node:http\` with one listener) over the same kind of connections, their CPU read the same way in their own processes, less their own idle CPU. Per round, fresh points (${int.format(run.cpu.points)}, not in the load set): each asked once (200, \`Civic-Cache: miss\`, its ETag kept), then ${run.cpu.passes} passes without a validator (200, \`hit\`), then ${run.cpu.passes} passes with \`If-None-Match\` of that ETag (304); every answer's status, \`Civic-Cache\` and ETag are checked. One warm-up round on its own points first, unrecorded. Reported: each round, and the median per kind and of the per-round ratios.`,
    `- **Which 200 a 304 is compared with**: the matching 200 is the answer the same request gets without \`If-None-Match\`, in the same state of the gateway: the ETag a client revalidates with came from a cached rendering, and a 304 is only answered without upstream calls while that entry is cached (an evicted or expired entry makes the revalidation itself a miss, costing what a miss costs, answered 304 or 200). So the target is judged against the cache-hit 200; the miss 200 is shown for reference.`,
  ].join('\n');
}

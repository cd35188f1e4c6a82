// The BENCHMARKS.md section: tables, targets (met or not, from this run's numbers) and method.
import { writeSection } from '../lib/section.mjs';
import { cpus } from 'node:os';

const CIVIC = 'civicgraph DistrictIndex';
const PEER = 'which-polygon';

/** Writes this benchmark's section of BENCHMARKS.md. */
export function writeGeoSection(path, section) {
  writeSection(path, 'geo', section);
}

const sig = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });
const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const us = (x) => (Number.isNaN(x) ? '—' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : int.format(x));
const ms = (x) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : int.format(x));
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
const times = (x) => `${x >= 10 ? x.toFixed(0) : x.toFixed(1)}×`;
const yes = (ok) => (ok ? '**met**' : '**not met**');

function agreement(c) {
  if (c === undefined) return '—';
  const far = c.disagreements > 0 ? `, farthest ${c.maxDistanceM.toExponential(1)} m from an edge` : '';
  return `${c.agreePct.toFixed(3)} % (${c.disagreements} off-edge diff${far}; ${c.onBoundary} on edge)`;
}

function memory(b) {
  if (b.bytes !== undefined) return `${mb(b.bytes)} (relation + GiST)`;
  return `${mb(b.heapBytes)} heap + ${mb(b.arrayBytes)} typed arrays`;
}

function workloadSection(w) {
  const lines = [
    `### (${w.id}) ${w.name}`,
    '',
    `${w.regions.toLocaleString('en-US')} regions, ${w.vertices.toLocaleString('en-US')} vertices; uniform points over lon ${w.bbox.minLng}…${w.bbox.maxLng}, lat ${w.bbox.minLat}…${w.bbox.maxLat}.`,
    '',
    '| points | engine | lookups/s per core | p50 µs | p99 µs | agreement with brute force (exact) | agreement with PostGIS |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const s of w.sets) {
    for (const r of s.rows) {
      const name = r.engine === CIVIC ? `**${r.engine}**` : r.engine;
      const n = r.n !== undefined && r.n !== s.n ? ` (first ${r.n.toLocaleString('en-US')})` : '';
      lines.push(
        `| ${s.name}${n} | ${name} | ${sig.format(r.lookupsPerSec)} | ${us(r.p50us)} | ${us(r.p99us)} | ${agreement(r.vsBrute)} | ${r.engine === 'PostGIS' ? '—' : agreement(r.vsPg)} |`,
      );
    }
    lines.push(`| ${s.name} | *brute force (reference)* | ${sig.format(1e6 / s.bruteUs)} | | | | |`);
  }
  lines.push('', '| engine | index build | memory retained |', '|---|---|---|');
  for (const b of w.builds) lines.push(`| ${b.engine} | ${ms(b.ms)} ms | ${memory(b)} |`);
  if (w.stats !== undefined) {
    const own = w.stats.bytes === undefined ? '' : ` The index reports ${mb(w.stats.bytes)} of its own.`;
    lines.push(
      '',
      `civicgraph index: H3 resolution ${w.resolution} (its default), ${int.format(w.stats.interiorCells)} interior cell–region pairs, ${int.format(w.stats.boundaryCells)} boundary cells (${int.format(w.stats.boundaryEntries)} pairs), ${w.stats.fallbackRegions} fallback regions.${own}`,
    );
  }
  const closed = w.builds.find((b) => b.closedRings !== undefined)?.closedRings ?? [];
  if (closed.length > 0) {
    lines.push(
      '',
      `Source rings left open (first vertex ≠ last), closed before loading into PostGIS, which needs closed rings (civicgraph and which-polygon close them implicitly): ${closed.join(', ')}.`,
    );
  }
  if (w.pgbench?.error !== undefined) lines.push('', `PostGIS over the wire: pgbench failed: ${w.pgbench.error}`);
  else if (w.pgbench !== undefined) {
    lines.push(
      '',
      `PostGIS over the wire (pgbench -M prepared, 1 connection, uniform random points in the same box): ${int.format(w.pgbench.tps)} lookups/s, p50 ${us(w.pgbench.p50us)} µs, p99 ${us(w.pgbench.p99us)} µs (${int.format(w.pgbench.n)} queries).`,
    );
  }
  return lines.join('\n');
}

function row(w, set, engine) {
  return w.sets.find((s) => s.name === set)?.rows.find((r) => r.engine === engine);
}

function ratios(w, engine) {
  return w.sets
    .map((s) => {
      const a = row(w, s.name, CIVIC),
        b = row(w, s.name, engine);
      return b === undefined ? undefined : { set: s.name, x: a.lookupsPerSec / b.lookupsPerSec };
    })
    .filter((r) => r !== undefined);
}

function targets({ workloads, http, postgis }) {
  const [a, b, c] = workloads;
  const out = ['| target | this run | |', '|---|---|---|'];
  const add = (t, list, min) => {
    if (list.length === 0) return out.push(`| ${t} | PostGIS unavailable: ${postgis.unavailable} | **not measured** |`);
    out.push(
      `| ${t} | ${list.map((r) => `${times(r.x)} (${r.set})`).join(', ')} | ${yes(list.every((r) => r.x >= min))} |`,
    );
  };
  add('civicgraph ≥ 50× which-polygon on (b)', ratios(b, PEER), 50);
  add('civicgraph ≥ 20× PostGIS on (b) (in-server per-lookup time)', ratios(b, 'PostGIS'), 20);
  const p99 = workloads.flatMap((w) =>
    w.sets.map((s) => ({ where: `(${w.id}) ${s.name}`, v: row(w, s.name, CIVIC).p99us })),
  );
  out.push(
    `| civicgraph p99 ≤ 20 µs | ${p99.map((p) => `${us(p.v)} µs ${p.where}`).join(', ')} | ${yes(p99.every((p) => p.v <= 20))} |`,
  );
  add('civicgraph at least as fast as which-polygon on (a)', ratios(a, PEER), 1);
  if (c !== undefined) {
    add('civicgraph ≥ 100× which-polygon on (c), national full resolution', ratios(c, PEER), 100);
    add('civicgraph ≥ 20× PostGIS on (c) (in-server per-lookup time)', ratios(c, 'PostGIS'), 20);
    const build = c.builds.find((x) => x.engine === CIVIC);
    out.push(
      `| (c) index build ≤ 60 s and ≤ 1 GB retained | ${(build.ms / 1000).toFixed(1)} s; ${mb(build.heapBytes + build.arrayBytes)} (${memory(build)}) | ${yes(build.ms <= 60_000 && build.heapBytes + build.arrayBytes <= 1 << 30)} |`,
    );
    const warm = c.restart.warm.map((r) => r.ms);
    out.push(
      `| (c) geo service restart ready (snapshot mapped, grpc.health SERVING) ≤ 3 s | ${warm.map((x) => `${(x / 1000).toFixed(2)} s`).join(', ')} (index: ${c.restart.warm.map((r) => r.index).join(', ')}); first start, building and writing the snapshot: ${(c.restart.cold.ms / 1000).toFixed(1)} s | ${yes(warm.every((x) => x <= 3000) && c.restart.warm.every((r) => r.index === 'snapshot'))} |`,
    );
    const im = c.import;
    out.push(
      `| (c) \`civicgraph import boundaries <folder>\` of all ${im.files} TIGER files ≤ 2 min, re-import changing nothing | ${(im.ms / 1000).toFixed(1)} s (${im.features} features, ${im.created} districts created); again ${(im.again.ms / 1000).toFixed(1)} s: ${im.again.created} created, ${im.again.updated} updated, ${im.again.deleted} deleted, ${im.again.unchanged} unchanged | ${yes(im.ms <= 120_000 && im.again.created + im.again.updated + im.again.deleted === 0)} |`,
    );
  }
  if (postgis.unavailable !== undefined) {
    out.push(
      `| 0 disagreements with PostGIS off-boundary | PostGIS unavailable: ${postgis.unavailable} | **not measured** |`,
    );
  } else {
    const d = workloads.flatMap((w) =>
      w.sets.map((s) => ({ where: `(${w.id}) ${s.name}`, c: row(w, s.name, CIVIC).vsPg })),
    );
    out.push(
      `| civicgraph: 0 disagreements with PostGIS off-boundary | ${d.map((x) => `${x.c.disagreements} in ${x.where}`).join(', ')} | ${yes(d.every((x) => x.c.disagreements === 0))} |`,
    );
  }
  if (http !== undefined) out.push(...httpTargets(http));
  return out.join('\n');
}

/** The HTTP rows of the targets table. */
function httpTargets(http) {
  const out = [];
  {
    const bare = http.targets.find((t) => t.kind === 'express');
    for (const gw of http.targets.filter((t) => t.kind === 'gateway')) {
      const which = gw.name.includes('separate') ? 'separate processes' : 'one process';
      const rounds = gw.ratioRounds.map((x) => `${(100 * x).toFixed(0)} %`).join(', ');
      out.push(
        `| gateway (${which}) saturated ≥ 60 % of bare express req/s | ${(100 * gw.ratio).toFixed(0)} % median of rounds (${rounds}); ${int.format(gw.saturated.rps)} vs ${int.format(bare.saturated.rps)} req/s | ${yes(gw.ratio >= 0.6)} |`,
      );
      out.push(
        `| gateway (${which}) p99 ≤ 20 ms at a quarter of saturation (${int.format(gw.quarterRate)} req/s, paced) | ${gw.quarter.p99ms.toFixed(1)} ms (rounds ${gw.quarterRounds.map((r) => r.p99ms.toFixed(1)).join(', ')}) | ${yes(gw.quarter.p99ms <= 20)} |`,
      );
    }
    const peer = (t) =>
      `${t.name.split(' (')[0]} at a quarter of its own saturation (${int.format(t.quarterRate)} req/s): paced p99 ${t.quarter.p99ms.toFixed(1)} ms`;
    out.push(
      `| (the same for the peers, same run) | ${http.targets
        .filter((t) => t.kind !== 'gateway')
        .map(peer)
        .join('; ')} | for reference |`,
    );
  }
  return out;
}

/** BENCH_HTTP_ONLY: the HTTP rows of the targets and the HTTP table, not written anywhere. */
export function renderHttpOnly(http) {
  return ['| target | this run | |', '|---|---|---|', ...httpTargets(http), '', httpSection(http)].join('\n');
}

function httpSection(http) {
  if (http === undefined) return '### HTTP end to end\n\nSkipped (BENCH_HTTP_SECONDS=0).';
  const lines = [
    '### HTTP end to end: `GET /v1/districts_by_point`',
    '',
    `Load from a separate process, ${http.connections} connections, ${http.seconds} s per run, ${http.rounds} interleaved rounds of the saturated and of the paced runs (after an unrecorded warm-up), each server's median round shown with the range of its rounds; each request a point drawn from ${int.format(http.points)} distinct seeded points over the US box. Latencies in ms.`,
    '',
    '| server | saturated req/s (rounds) | p50 | p99 | quarter rate (req/s) | paced p50 / p99 (p99 of rounds) | server event-loop delay p99: saturated / paced | load client loop delay p99 / max, paced | errors / non-2xx | gateway cache hits | probed process CPU per request, saturated (µs) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const f = (x) => (x < 10 ? x.toFixed(1) : int.format(x));
  for (const t of http.targets) {
    const s = t.saturated,
      p = t.quarter;
    const bad = [...t.saturatedRounds, ...t.quarterRounds].reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0);
    const c = s.cache.hit + s.cache.miss;
    const hits = c === 0 ? '—' : `${((100 * s.cache.hit) / c).toFixed(0)} %`;
    const satRounds = t.saturatedRounds.map((r) => int.format(r.rps)).join(', ');
    const pacedRounds = t.quarterRounds.map((r) => f(r.p99ms)).join(', ');
    lines.push(
      `| ${t.name} | ${int.format(s.rps)} (${satRounds}) | ${s.p50ms} | ${s.p99ms} | ${int.format(t.quarterRate)} | ${f(p.p50ms)} / ${f(p.p99ms)} (${pacedRounds}) | ${f(s.loopDelayP99ms)} / ${f(p.loopDelayP99ms)} | ${f(p.clientLoopDelayP99ms)} / ${f(p.clientLoopDelayMaxMs)} | ${bad} | ${hits} | ${cpuPerRequest(s)} |`,
    );
  }
  lines.push(
    '',
    ...http.targets
      .filter((t) => t.kind !== 'express')
      .map(
        (t) =>
          `${t.name} / bare express: ${(100 * t.ratio).toFixed(0)} % of the requests per second (median of the per-round ratios).`,
      ),
  );
  return lines.join('\n');
}

/** CPU time (user + system) of the server process(es) under the probe, per request answered. */
function cpuPerRequest(run) {
  const us = run.serverCpuUs;
  return us === undefined || run.total === 0 ? '—' : int.format((us.user + us.system) / run.total);
}

/** The whole section (without markers). */
export function renderSection(run) {
  const { config, workloads, http, timerNs, postgis } = run;
  const pgLine =
    postgis.unavailable === undefined
      ? `PostgreSQL ${postgis.version}`
      : `**PostGIS unavailable: ${postgis.unavailable}** — its rows and targets are not measured`;
  return [
    '## Geo: point in district against which-polygon and PostGIS, and the HTTP endpoint',
    '',
    `Written by \`npm run bench:geo\` (scripts/bench/geo.mjs) on ${new Date().toISOString().slice(0, 10)} in ${run.seconds.toFixed(0)} s: ` +
      `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, Node ${process.version}, ${pgLine}. ` +
      `${config.points.toLocaleString('en-US')} seeded points per set. The machine is shared, so numbers are noisy.`,
    '',
    targets(run),
    '',
    ...workloads.map(workloadSection).flatMap((s) => [s, '']),
    httpSection(http),
    '',
    '### Method',
    '',
    `- **Point sets.** *uniform*: over the workload's box. *near boundary*: a random region, ring and vertex (or edge midpoint), moved up to 100 m in a random direction.`,
    `- **lookups/s per core**: best of ${config.runs} back-to-back passes over the set, one thread, no per-lookup timer. **p50/p99**: a further pass timing every lookup on its own with \`process.hrtime.bigint()\`; each sample includes the timer's own cost (median ${timerNs} ns here).`,
    '- **Engines.** civicgraph: `DistrictIndex.build(regions)` at its default resolution, `lookup(lat, lng)`. which-polygon 2.2: `whichPolygon(featureCollection)`, `query([lng, lat], true)` (all matches). Both in this process, on the same regions and points.',
    '- **PostGIS**: the same polygons via `ST_GeomFromGeoJSON` (SRID 4326) in a table with a GiST index, in a scratch database dropped afterwards. Per-lookup time is measured in the server: a plpgsql loop over a table of the same points runs `SELECT array_agg(slug) FROM b WHERE ST_Covers(geom, ST_SetSRID(ST_MakePoint(lng, lat), 4326))` (prepared once by plpgsql, plan reused) between two `clock_timestamp()` calls (1 µs resolution); lookups/s = lookups / sum of those times, one backend = one core. No client round trip is counted, as for the in-process engines; the pgbench line adds it (`-M prepared`, one connection). Build = table from GeoJSON + GiST index + ANALYZE; memory = `pg_total_relation_size`.',
    "- **(c) national**: a fresh data folder filled as an operator would, with `civicgraph import boundaries <the TIGER folder>` (one process, timed from spawn to exit, then run again to show a re-import changes nothing) and the 119th Congress 1:20M and Colorado legislative maps beside it, dated as the registry dates them; the regions are then read back from the boundary store as the geo service reads them (`loadBoundaries`: every version of every map, superseded coarse versions dropped), each keyed `slug@valid_from` so versions of one district stay apart. Restart: the geo service's own `main.js` on that folder, timed from spawn to `grpc.health.v1` SERVING — once building the index and writing its snapshot, then twice more reading the snapshot.",
    '- **Build and memory**: wall time of the build call; memory = `heapUsed` and `arrayBuffers` deltas between `global.gc()` runs before and after the build (the input regions exist on both sides). The script re-spawns itself with `--expose-gc`.',
    "- **Agreement**: per point, the sorted set of slugs. The reference is civicgraph's `bruteForce` (the exact half-open test over every region). A point is *on edge* (excluded) when it lies exactly on an edge of every region two answers differ on (orientation test exactly 0): civicgraph is half-open and `ST_Covers` includes the boundary. Any other difference is an *off-edge diff*, reported with its distance to the nearest edge.",
    "- **HTTP**: auth, geo (us-atlas + 119th CDs, its default H3 resolution) and gateway started twice, from a fresh benchmark process (not the one holding the engine workloads, whose large heap would add its garbage-collection pauses): all in one process of their own like `test/harness/stack.ts` and `civicgraph up` (each from its own config reader fed a private environment), and as separate processes from their own `main.js` as deployed; real gRPC and HTTP on 127.0.0.1; an enterprise key (1,000,000 requests/min). Bare express 5 (the gateway's own copy) in a process of its own, same path, fixed 1 KB JSON, served by a stock `http.createServer(app)` (the peer the targets name), and a bare Node HTTP server with the same body in another. No server shares a process with another server, with the load or with the orchestrating script; each carries a probe (`scripts/bench/lib/probe.cjs`, preloaded, answering over IPC) that reports what only its process sees. The gateway asks geo for uncached points with unary `DistrictsAtPoints` calls, the points one key asked for in one event-loop turn together (deadline and retry in the client interceptor), and keeps each answer in its one response cache. Saturated: autocannon 8 (closed loop). Quarter rate = a quarter of the median saturated req/s, *paced*: an open-loop client sending evenly spaced requests, latency counted from each request's scheduled send time (1 ms timer granularity; if the load process itself falls behind, that lag counts too, and its own event-loop delay is reported beside it). autocannon latencies have 1 ms resolution. Server event-loop delay: `monitorEventLoopDelay` in the server process during the run (for the separate processes, the gateway's), read by its probe; high values with a trivial handler mean the CPU was contended. CPU per request: user + system CPU time of the probed process during the median saturated run, over the requests answered in it (the one-process stack: auth, geo and gateway together; separate processes: the gateway's alone).",
  ].join('\n');
}

// The GraphQL section of BENCHMARKS.md: targets (met or not, from this run's numbers), the
// per-round tables, the CPU of refused documents and the method.
import { cpus } from 'node:os';
import { writeSection } from '../lib/section.mjs';

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const f1 = (x) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : int.format(x));
const yes = (ok) => (ok ? '**met**' : '**not met**');
const gc = (r) => `${f1(r.gc.maxMs)} / ${int.format(r.gc.totalMs)}`;
const bad = (r) => r.errors + r.timeouts + r.non2xx;
const hits = (r) => {
  const n = r.cache.hit + r.cache.miss;
  return n === 0 ? '—' : `${((100 * r.cache.hit) / n).toFixed(0)} %`;
};

/** Writes this benchmark's section of BENCHMARKS.md. */
export function writeGraphqlSection(path, run) {
  writeSection(path, 'graphql', renderGraphqlSection(run));
}

/** The two ways the services ran: each with its GraphQL and REST servers and its neighbour measurement. */
function topologiesOf(run) {
  const byId = (id) => run.servers.find((s) => s.id === id);
  return [
    { where: 'one process', gql: byId('graphql'), rest: byId('rest'), neighbour: run.neighbour },
    {
      where: 'separate processes, as deployed',
      gql: byId('graphql-deployed'),
      rest: byId('rest-deployed'),
      neighbour: run.neighbourDeployed,
    },
  ];
}

function targetRows(run) {
  const bare = run.servers.find((s) => s.id === 'bare');
  const topologies = topologiesOf(run);
  const worst = Math.max(...run.refusals.filter((r) => r.expect !== 'ok').map((r) => r.cpuUs));
  const t = run.targets;
  return [
    '| target | this run | |',
    '|---|---|---|',
    ...topologies.map(
      ({ where, gql }) =>
        `| \`ballotAtPoint\` with the spec's nested selection: p99 ≤ ${t.p99ms} ms at ${t.rate} req/s (open loop); ${where} | median round p99 **${f1(gql.paced.p99ms)} ms** (rounds ${gql.pacedRounds.map((r) => f1(r.p99ms)).join(', ')}), p50 ${f1(gql.paced.p50ms)} ms at ${run.config.rate} req/s | ${yes(gql.paced.p99ms <= t.p99ms)} |`,
    ),
    ...topologies.map(
      ({ where, gql }) =>
        `| the same on points never asked before (each point new: the operation runs); ${where} | median round p99 **${f1(gql.cold.p99ms)} ms** (rounds ${gql.coldRounds.map((r) => f1(r.p99ms)).join(', ')}), p50 ${f1(gql.cold.p50ms)} ms; ${gql.coldRounds.map(hits).join(', ')} result-cache hits; server CPU ${f1(cpuPerRequest(gql.cold))} µs per operation${where === 'one process' ? '' : ' (the gateway process alone)'} | ${yes(gql.cold.p99ms <= t.p99ms)} |`,
    ),
    ...topologies.map(
      ({ where, gql, rest }) =>
        `| saturation req/s beside the REST ballot, same run; ${where} | GraphQL ${int.format(gql.saturated.rps)}, REST ${int.format(rest.saturated.rps)} (${((100 * gql.saturated.rps) / rest.saturated.rps).toFixed(0)} %), bare express ${int.format(bare.saturated.rps)} req/s | reported |`,
    ),
    `| each bad input refused at validation, stable \`extensions.type\`, never a 500 | ${run.refusals.filter((r) => r.expect !== 'ok').every((r) => r.ok) ? 'every kind, every request' : 'see the table'} | ${yes(run.refusals.every((r) => r.ok))} |`,
    `| … in under 2 ms of CPU | the costliest kind ${f1(worst)} µs of server CPU per request | ${yes(worst < t.refusalCpuUs)} |`,
    ...topologies.map(
      ({ where, neighbour: n }) =>
        `| a hostile self-serve key cannot move another key's p99 past ${t.neighbourP99ms} ms (the ballot's own p99 target on points never asked): the REST ballot at ${run.config.rate} req/s beside a Build key flooding the heaviest documents Build admits; ${where} | median round p99 **${f1(n.flooded.p99ms)} ms** beside the flood (it was answered ${n.floods.map((f) => f.answers['200'] ?? 0).join(', ')} documents a round, refused 429 ${n.floods.map((f) => int.format(f.answers['429'] ?? 0)).join(', ')} times), ${f1(n.alone.p99ms)} ms alone (${n.ratio.toFixed(1)}×); peak RSS ${int.format(Math.max(...n.floodedRounds.map((r) => r.maxRssMb)))} MB${where === 'one process' ? '' : ' (the gateway process)'} | ${yes(n.flooded.p99ms <= t.neighbourP99ms)} |`,
    ),
  ];
}

/** Server CPU µs per answered request during a run (its probe's reading). */
const cpuPerRequest = (r) => (r.serverCpuUs.user + r.serverCpuUs.system) / Math.max(1, r.total);

function saturatedTable(run) {
  const lines = [
    '| server | round | req/s | p50 | p99 | max | server CPU µs / request | server event-loop delay p99 | server GC pauses max / total ms | errors / non-2xx | cache hits |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of run.servers) {
    s.saturatedRounds.forEach((r, k) => {
      const mark = r === s.saturated ? ' (median)' : '';
      lines.push(
        `| ${s.name} | ${k + 1}${mark} | ${int.format(r.rps)} | ${r.p50ms} | ${r.p99ms} | ${r.maxMs} | ${f1(cpuPerRequest(r))} | ${f1(r.loopDelayP99ms)} | ${gc(r)} | ${bad(r)} | ${hits(r)} |`,
      );
    });
  }
  return lines;
}

function pacedTable(run) {
  const lines = [
    '| server | round | answered | p50 | p99 | max | server CPU µs / request | server event-loop delay p99 | server GC pauses max / total ms | load client loop delay p99 / max | errors / non-2xx | cache hits |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const row = (s, r, label) =>
    `| ${s.name}${label} | ${r.round}${r.mark} | ${int.format(r.total)} | ${f1(r.p50ms)} | ${f1(r.p99ms)} | ${f1(r.maxMs)} | ${f1(cpuPerRequest(r))} | ${f1(r.loopDelayP99ms)} | ${gc(r)} | ${f1(r.clientLoopDelayP99ms)} / ${f1(r.clientLoopDelayMaxMs)} | ${bad(r)} | ${hits(r)} |`;
  for (const s of run.servers.filter((x) => x.pacedRounds.length > 0)) {
    s.pacedRounds.forEach((r, k) =>
      lines.push(row(s, { ...r, round: k + 1, mark: r === s.paced ? ' (median)' : '' }, '')),
    );
    (s.coldRounds ?? []).forEach((r, k) =>
      lines.push(row(s, { ...r, round: k + 1, mark: r === s.cold ? ' (median)' : '' }, ', points never asked before')),
    );
  }
  return lines;
}

function neighbourTable(run) {
  const lines = [
    '| where | round | ballot alone p50 / p99 / max (ms) | beside the flood p50 / p99 / max (ms) | errors / non-2xx beside it | flood: documents answered (status × count), MB sent back | peak RSS (MB; separate processes: the gateway) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const { where, neighbour: n } of topologiesOf(run))
    n.aloneRounds.forEach((a, k) => {
      const f = n.floodedRounds[k];
      const fl = n.floods[k];
      lines.push(
        `| ${where} | ${k + 1} | ${f1(a.p50ms)} / ${f1(a.p99ms)} / ${f1(a.maxMs)} | ${f1(f.p50ms)} / ${f1(f.p99ms)} / ${f1(f.maxMs)} | ${bad(f)} | ${Object.entries(
          fl.answers,
        )
          .map(([s, n]) => `${s} × ${int.format(n)}`)
          .join(', ')}, ${int.format(fl.megabytes)} MB | ${int.format(f.maxRssMb)} |`,
      );
    });
  return lines;
}

function refusalTable(run) {
  const lines = [
    '| request | body | server CPU per request (µs) | answers (status type × count) |',
    '|---|---|---|---|',
  ];
  for (const r of run.refusals)
    lines.push(
      `| ${r.name} | ${int.format(r.bytes)} B | ${f1(r.cpuUs)} | ${Object.entries(r.answers)
        .map(([k, n]) => `${k} × ${int.format(n)}`)
        .join(', ')} |`,
    );
  return lines;
}

/** The whole section (without markers). */
export function renderGraphqlSection(run) {
  const c = run.config;
  return [
    '## GraphQL: `ballotAtPoint` end to end, beside the REST ballot, and what refusals cost',
    '',
    `Written by \`npm run bench:graphql\` (scripts/bench/graphql.mjs) on ${new Date().toISOString().slice(0, 10)} in ${run.seconds.toFixed(0)} s: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, Node ${process.version}. Demo graph as \`civicgraph up\` loads it (${int.format(run.demo.nodes)} nodes, ${int.format(run.demo.edges)} edges). Ballots for ${run.date} at ${int.format(c.points)} distinct seeded points over CO, CA, TX, NY, FL, PA. The Denver ballot over GraphQL: ${run.probe.contests} contests, ${run.probe.candidacies} candidacies, scored at cost ${run.probe.cost?.requested} and depth ${run.probe.cost?.depth}. The machine is shared, so numbers are noisy.`,
    '',
    ...targetRows(run),
    '',
    '### Saturated',
    '',
    `autocannon, ${c.connections} connections, ${c.seconds} s per run, ${c.rounds} rounds interleaved across the servers (after a ${c.warmup} s unrecorded warm-up each). Latencies in ms.`,
    '',
    ...saturatedTable(run),
    '',
    `### Paced at ${c.rate} req/s`,
    '',
    `The open-loop client at exactly ${c.rate} req/s, ${c.connections} connections, ${c.seconds} s per run, ${c.rounds} rounds, the REST ballot at the same rate in the same rounds; then ${c.rounds} rounds of GraphQL alone, in each topology, on ${int.format(c.rate * c.seconds)} points never asked before, each once (no point's result is cached: each operation runs across the stitched subschemas). Latencies in ms from each request's scheduled send time.`,
    '',
    ...pacedTable(run),
    '',
    '### Refused documents: server CPU per request',
    '',
    ...refusalTable(run),
    '',
    `### A hostile neighbour`,
    '',
    `The REST ballot paced at ${c.rate} req/s for ${c.seconds} s on one key, alone and then beside a Build key (600 requests a minute, its plan's limit) sending, 4 at a time and without pause from the orchestrating process (on the same cores), GraphQL documents of 30 full introspections under fresh alias names (no answer reused; near the heaviest document Build's cost ceiling of 10,000 admits), interleaved over ${c.rounds} rounds: the flood is answered until the key's minute is spent, then refused 429. Latencies in ms from each request's scheduled send time. GraphQL answers count against the key's minute by their nodes (one request per 100), so the first few documents spend the Build key's minute and the rest are refused. (Before that rule, the same Build flood was answered 353 times in a round and the ballot's p99 went from 2 ms to 2.5 s, the stack's RSS to 2.2 GB; an Enterprise key negotiated at 1,000,000 requests a minute is bounded by what was negotiated.)`,
    '',
    ...neighbourTable(run),
    '',
    '### Method',
    '',
    "- **System**: auth, geo, graph, results and gateway in one process of their own, as `civicgraph up` runs them (`geo/http.mjs` `spawnStack`), over the synthetic demo graph `civicgraph up` loads (`rest/prepare.mjs` in a child, before the stack starts); geo serves us-atlas states and counties and the 119th Congress districts (1:20M). The same services also run each in a process of its own, from their own `main.js`, as deployed (`geo/processes.mjs` `startProcesses`, configured by environment), over a copy of the prepared data folder made before either started; their gateway carries the probe, so their server CPU, event-loop delay and GC are the gateway's. The bare express peer runs in a process of its own. Each server carries the probe (`scripts/bench/lib/probe.cjs`) that reports its event-loop delay, GC pauses and CPU. An enterprise key (1,000,000 requests/min), so the limits scored are Enterprise's.",
    "- **GraphQL load**: `POST /graphql` with the spec's nested selection (`office {name level} region {name fips population} candidacies {person {name} party {name} isIncumbent confidence}`) and each request's point and date as variables, drawn from the same point set as the REST ballot's `GET /v1/ballot?lat=&lng=&date=` (`geo/load.mjs` with `graphql`: autocannon, or the paced client posting the body). Both layers keep their answers in the gateway's one response cache: REST by URL, GraphQL by document, variables, caller policy, version, day and Accept; dropped by the data-change events naming anything behind them, so once the saturated runs have asked the set's points, most requests are cache hits (see the columns); in the rounds on points never asked before, each operation runs across the stitched subschemas: a point lookup, the graph's ballot (from the gateway's ballot memo when the point's districts were asked about before) and one merge of the regions' geo fields.",
    `- **Refusals**: per kind, a closed loop of 4 concurrent requests from the orchestrating process (not the server) after a 50-request warm-up; CPU = the server process's \`process.cpuUsage()\` over the loop, read through its probe, less its idle CPU over the same wall time (measured for ${c.quietMs} ms before, after a garbage collection and ${c.quietMs} ms of quiet; another collection and as much quiet before the loop), divided by the requests. Every answer's status and \`extensions.type\` is tallied.`,
  ].join('\n');
}

#!/usr/bin/env node
// `npm run bench:tracing`: what tracing costs on the hot path. One process serves an HTTP
// route through the gateway's traceRequests middleware that makes one gRPC call to a kit
// `unary` service (the gateway → service shape), and the same gRPC call alone. Measured in
// rounds that alternate tracing off (the default), on (every trace recorded and sent over
// OTLP/HTTP to a local sink that discards it) and on at 1% sampling, so every mode sees
// the same machine. Also the per-call cost of the off-path check itself. Writes its section
// of BENCHMARKS.md. Run after `npm run build`.
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Metadata } from '@grpc/grpc-js';
import autocannon from 'autocannon';
import express from 'express';
import { GeoServiceClient, GeoServiceService } from '@civicgraph/protos/civic/geo/v1/geo';
import {
  call,
  clientOptions,
  createLogger,
  insecure,
  Lifecycle,
  serverSpan,
  startGrpcServer,
  startTracing,
  unary,
} from '@civicgraph/kit';
import { traceRequests } from '../../services/gateway/dist/http/trace-requests.js';
import { int, path } from './lib/env.mjs';
import { writeSection } from './lib/section.mjs';

// BENCH_OUTPUT: where the section goes (default the repository's BENCHMARKS.md; the smoke test writes elsewhere).
const OUTPUT = path('BENCH_OUTPUT', fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url)));
const ROUNDS = int('BENCH_TRACING_ROUNDS', 3, 1, 20);
const SECONDS = int('BENCH_TRACING_SECONDS', 3, 1, 60);
const CALLS = int('BENCH_TRACING_CALLS', 20_000, 1_000, 1_000_000);
const INFLIGHT = 32;
const log = createLogger('bench', 'silent');

/** An OTLP/HTTP collector that reads and drops what it is sent, counting requests. */
async function sink() {
  let posts = 0;
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      posts++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, posts: () => posts, close: () => server.close() };
}

const MODES = [
  { name: 'off (default)', exporter: 'none', ratio: 1 },
  { name: 'on, every trace', exporter: 'otlp', ratio: 1 },
  { name: 'on, 1% of traces', exporter: 'otlp', ratio: 0.01 },
];

async function round(mode, collector, server) {
  const lifecycle = new Lifecycle(log);
  await startTracing(
    { exporter: mode.exporter, endpoint: collector.url, serviceName: 'bench', sampleRatio: mode.ratio },
    lifecycle,
    log,
  );
  // Made after tracing starts, as a service makes its clients: the interceptor is chosen then.
  const client = new GeoServiceClient(server.address, insecure(), clientOptions(10_000));
  const ask = () => call(client.districtsAtPoint.bind(client), { lat: 1, lng: 1, date: '' }, new Metadata());
  const grpc = await callsPerSecond(ask);
  const app = express();
  app.use(traceRequests());
  app.get('/v1/things/:id', (_req, res, next) => void ask().then((r) => res.json(r), next));
  const http = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url: `http://127.0.0.1:${http.address().port}/v1/things/x`,
    connections: INFLIGHT,
    duration: SECONDS,
  });
  const httpCpu = cpuMicros(cpu) / result.requests.total;
  http.close();
  client.close();
  await lifecycle.stop('round done');
  return { grpc: grpc.rate, grpcCpu: grpc.cpu, http: result.requests.average, httpCpu, p99: result.latency.p99 };
}

/**
 * gRPC calls per second, INFLIGHT at a time, and the process's CPU time per call (client and
 * server, span export included): the CPU figure moves far less than the rate when other
 * work shares the machine.
 */
async function callsPerSecond(ask) {
  for (let i = 0; i < 500; i++) await ask();
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next++ < CALLS) await ask();
    }),
  );
  return { rate: CALLS / ((performance.now() - started) / 1000), cpu: cpuMicros(cpu) / CALLS };
}

/** CPU microseconds (user and system) the process spent since `from`. */
function cpuMicros(from) {
  const d = process.cpuUsage(from);
  return d.user + d.system;
}

/** Nanoseconds of the check every served call makes with tracing off. */
function offCheckNs() {
  const fake = { getPath: () => '/x/Y', metadata: new Metadata() };
  const n = 10_000_000;
  let none = 0;
  const t = performance.now();
  for (let i = 0; i < n; i++) if (serverSpan(fake) === undefined) none++;
  return ((performance.now() - t) * 1e6) / n + (none === n ? 0 : NaN);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString('en-US');

const load = loadavg()[0];
const collector = await sink();
const server = await startGrpcServer({
  host: '127.0.0.1',
  port: 0,
  services: [
    {
      name: 'civic.geo.v1.GeoService',
      definition: GeoServiceService,
      implementation: {
        districtsAtPoint: unary(log, 'DistrictsAtPoint', async () => ({ regions: [], datasetVersion: 'v1' })),
      },
    },
  ],
  log,
});
server.markServing();
const results = new Map(MODES.map((m) => [m.name, []]));
// A round of each first, not counted: the JIT warms up on whichever mode comes first.
for (const mode of MODES) await round(mode, collector, server);
for (let r = 0; r < ROUNDS; r++) {
  for (const mode of MODES) {
    const got = await round(mode, collector, server);
    results.get(mode.name).push(got);
    console.log(
      `round ${r + 1} ${mode.name}: gRPC ${fmt(got.grpc)}/s ${got.grpcCpu.toFixed(0)} µs CPU, HTTP ${fmt(got.http)}/s ${got.httpCpu.toFixed(0)} µs CPU (p99 ${got.p99} ms)`,
    );
  }
}
const off = offCheckNs();
await server.stop(1_000);
collector.close();

const medianOf = (mode, key) => median(results.get(mode).map((x) => x[key]));
const base = Object.fromEntries(['grpc', 'grpcCpu', 'http', 'httpCpu'].map((k) => [k, medianOf(MODES[0].name, k)]));
const rows = MODES.map(({ name }) => {
  const cell = (key, digits) => {
    const v = medianOf(name, key);
    return `${key.endsWith('Cpu') ? v.toFixed(0) : fmt(v)} | ${(v / base[key]).toFixed(digits)}`;
  };
  return `| ${name} | ${cell('grpcCpu', 2)} | ${cell('grpc', 2)} | ${cell('httpCpu', 2)} | ${cell('http', 2)} | ${medianOf(name, 'p99')} ms |`;
});
const section = `## Tracing: the hot path with tracing off, on, and sampled (\`npm run bench:tracing\`, ${new Date().toISOString().slice(0, 10)})

One process on loopback: a kit \`unary\` gRPC service answering at once, called ${fmt(CALLS)} times ${INFLIGHT} in flight; and an HTTP route behind the gateway's \`traceRequests\` making one such call per request (autocannon, ${INFLIGHT} connections, ${SECONDS} s). Rounds alternate the modes (${ROUNDS} each after one of each to warm up, medians shown); "on" sends every span over OTLP/HTTP (protobuf) to a local sink that drops it (${fmt(collector.posts())} exports received). Ratios are against tracing off in the same run. CPU time is the whole process's per call (client, server, span export; for HTTP, autocannon's share too, the same in every mode): it moves far less than the rates when other work shares the machine. ${cpus().length} cores (${cpus()[0]?.model.trim()}), shared: load average ${load.toFixed(1)} when the run began, so single rounds vary by tens of percent.

| tracing | CPU µs per gRPC call | × off | gRPC calls/s | × off | CPU µs per HTTP request | × off | HTTP requests/s | × off | HTTP p99 |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

With tracing off a client is made without the tracing interceptor and a served call asks one module variable whether tracing is on: **${off.toFixed(1)} ns** a call here, against calls that cost a hundred microseconds and more of CPU. With tracing on, sampling 1% saves the export but not the spans' context: every call still carries it across its awaits (AsyncLocalStorage) and makes a non-recording span. Where the rest goes has not been profiled; this runs on Node ${process.versions.node}, while the image runs a Node whose AsyncLocalStorage no longer rides on async hooks (not measured here).`;
writeSection(OUTPUT, 'tracing', section);
console.log(section);

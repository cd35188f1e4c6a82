// One load run, in its own process (spawned by http.mjs): GET <path>?lat=&lng= with a point
// drawn per request from `points` distinct seeded points over the US bounding box, so the
// gateway's point cache cannot answer most requests. Prints a JSON summary on stdout.
//
// mode 'autocannon' (default): autocannon, saturated or with `overallRate`.
// mode 'paced': an open-loop client (paced-client.mjs) sending `rate` requests/s evenly
// spaced, latency measured from each request's scheduled time (so a stall is not hidden by
// sending less). autocannon's
// rate limit lets each connection send its quota for the second as fast as it can, then wait
// for the next tick: its "half rate" is saturation for half of every second.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { seededRandom } from '@civicgraph/kit';
import { pacedLoad } from './paced-client.mjs';

const o = JSON.parse(process.argv[2]);
const rand = seededRandom(o.seed);
const pointsRand = seededRandom(12_345);
// `queries`: a file of query strings, one a line, drawn from instead (bench:rest's ballot points).
const paths =
  o.queries !== undefined
    ? readFileSync(o.queries, 'utf8')
        .split('\n')
        .filter((q) => q !== '')
        .map((q) => `${o.path}?${q}`)
    : Array.from({ length: o.points }, () => {
        const lng = (-125 + pointsRand() * 59).toFixed(5);
        const lat = (24 + pointsRand() * 26).toFixed(5);
        return `${o.path}?lat=${lat}&lng=${lng}`;
      });
// `sequential`: the paths in order, each once while they last (no repeats: every request new).
let next = 0;
const nextPath =
  o.sequential === true ? () => paths[next++ % paths.length] : () => paths[Math.floor(rand() * paths.length)];
const headers = o.key === undefined ? {} : { authorization: `Bearer ${o.key}` };
// `graphql`: a query sent as POST /graphql, its variables the drawn path's query string
// (numbers where they parse), so the same points load REST and GraphQL alike.
const bodyFor =
  o.graphql === undefined
    ? undefined
    : (path) => {
        const variables = {};
        for (const [k, v] of new URLSearchParams(path.slice(path.indexOf('?') + 1)))
          variables[k] = v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
        return { target: '/graphql', body: JSON.stringify({ query: o.graphql, variables }) };
      };
const cache = { hit: 0, miss: 0 };
const count = (c) => {
  if (c === 'hit') cache.hit += 1;
  else if (c === 'miss') cache.miss += 1;
};

async function runAutocannon() {
  const result = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.duration,
    ...(o.overallRate === undefined ? {} : { overallRate: o.overallRate }),
    headers,
    requests: [
      {
        method: bodyFor === undefined ? 'GET' : 'POST',
        ...(bodyFor === undefined ? {} : { headers: { ...headers, 'content-type': 'application/json' } }),
        setupRequest: (req) => {
          if (bodyFor === undefined) return { ...req, path: nextPath() };
          const { target, body } = bodyFor(nextPath());
          return { ...req, path: target, body };
        },
        onResponse: (_status, _body, _context, h) => count(h?.['civic-cache'] ?? h?.['Civic-Cache']),
      },
    ],
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    maxMs: result.latency.max,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cache,
  };
}

async function runPaced() {
  // The client's own stalls count as latency (open loop); this says how large they were.
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const r = await pacedLoad({
    url: o.url,
    rate: o.rate,
    duration: o.duration,
    connections: o.connections,
    nextPath,
    headers,
    onCache: count,
    bodyFor,
  });
  delay.disable();
  const sorted = r.latencies.sort();
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return {
    rps: sorted.length / r.seconds,
    total: sorted.length,
    p50ms: q(0.5),
    p99ms: q(0.99),
    maxMs: sorted[sorted.length - 1],
    ok: r.ok,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: 0,
    cache,
    clientLoopDelayP99ms: delay.percentile(99) / 1e6,
    clientLoopDelayMaxMs: delay.max / 1e6,
    unanswered: r.unanswered,
  };
}

process.stdout.write(JSON.stringify(o.mode === 'paced' ? await runPaced() : await runAutocannon()));

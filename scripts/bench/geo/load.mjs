// One load run, in its own process (spawned by http.mjs): GET <path>?lat=&lng= with a point
// drawn per request from `points` distinct seeded points over the US bounding box, so the
// gateway's point cache cannot answer most requests. Prints a JSON summary on stdout.
//
// mode 'autocannon' (default): autocannon, saturated or with `overallRate`.
// mode 'paced': an open-loop client sending `rate` requests/s evenly spaced, latency measured
// from each request's scheduled time (so a stall is not hidden by sending less). autocannon's
// rate limit lets each connection send its quota for the second as fast as it can, then wait
// for the next tick: its "half rate" is saturation for half of every second.
import http from 'node:http';
import autocannon from 'autocannon';
import { seededRandom } from '@civicgraph/kit';

const o = JSON.parse(process.argv[2]);
const rand = seededRandom(o.seed);
const pointsRand = seededRandom(12_345);
const paths = Array.from({ length: o.points }, () => {
  const lng = (-125 + pointsRand() * 59).toFixed(5);
  const lat = (24 + pointsRand() * 26).toFixed(5);
  return `${o.path}?lat=${lat}&lng=${lng}`;
});
const nextPath = () => paths[Math.floor(rand() * paths.length)];
const headers = o.key === undefined ? {} : { authorization: `Bearer ${o.key}` };
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
    requests: [{
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: nextPath() }),
      onResponse: (_status, _body, _context, h) => count(h?.['civic-cache'] ?? h?.['Civic-Cache']),
    }],
  });
  return {
    rps: result.requests.average, total: result.requests.total, p50ms: result.latency.p50, p99ms: result.latency.p99,
    maxMs: result.latency.max, ok: result['2xx'], non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts, cache,
  };
}

async function runPaced() {
  const { hostname, port } = new URL(o.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const intervalMs = 1000 / o.rate;
  const total = Math.floor(o.rate * o.duration);
  const latencies = [];
  const r = { ok: 0, non2xx: 0, errors: 0 };
  const start = performance.now();
  let sent = 0;
  await new Promise((resolve) => {
    let done = 0;
    const finish = () => { if (++done === total) resolve(); };
    const send = (scheduled) => {
      const req = http.get({ hostname, port, path: nextPath(), headers, agent, timeout: 10_000 }, (res) => {
        count(res.headers['civic-cache']);
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - scheduled);
          if (res.statusCode >= 200 && res.statusCode < 300) r.ok += 1; else r.non2xx += 1;
          finish();
        });
      });
      req.on('error', () => { r.errors += 1; finish(); });
      req.on('timeout', () => req.destroy(new Error('timeout')));
    };
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
      for (; sent < due; sent++) send(start + sent * intervalMs);
      if (sent >= total) clearInterval(tick);
    }, 1);
    setTimeout(resolve, (o.duration + 15) * 1000).unref();
  });
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return { rps: latencies.length / ((performance.now() - start) / 1000), total: latencies.length, p50ms: q(0.5), p99ms: q(0.99), maxMs: sorted[sorted.length - 1], ...r, timeouts: 0, cache };
}

process.stdout.write(JSON.stringify(o.mode === 'paced' ? await runPaced() : await runAutocannon()));

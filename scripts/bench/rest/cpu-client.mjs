// The load side of the CPU measurement, forked by cpu.mjs with an IPC channel: for each
// phase it is sent, it opens its keep-alive connections (untimed), says `ready`, and on
// `go` runs a closed loop of `connections` concurrent requests over the phase's paths
// (`passes` times each), then answers `done` with what came back. The server process reads
// its own process.cpuUsage() between `go` and `done`, so only the requests are counted
// (the phase's paths travel with `prepare`, its tally after `done`).
// Conditional phases send `If-None-Match` with the ETag the miss phase saw for that path.
import http from 'node:http';

const o = JSON.parse(process.argv[2]);
const { hostname, port } = new URL(o.url);
const etags = new Map();
let agent;

function get(path, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: hostname, port, path, agent, headers: { authorization: `Bearer ${o.key}`, ...headers } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            cache: res.headers['civic-cache'],
            etag: res.headers.etag,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens the connections before the window: one cheap request on each, concurrently. */
async function connect() {
  agent?.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  await Promise.all(Array.from({ length: o.connections }, () => get('/healthz', {})));
}

async function run(phase) {
  const total = phase.paths.length * phase.passes;
  const tally = { requests: 0, status: {}, cache: {}, bytes: 0, etagMismatch: 0, contests: [], regions: [] };
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const path = phase.paths[next++ % phase.paths.length];
      const r = await get(path, phase.conditional ? { 'if-none-match': etags.get(path) ?? '"none"' } : {});
      tally.requests += 1;
      tally.status[r.status] = (tally.status[r.status] ?? 0) + 1;
      tally.cache[r.cache ?? 'none'] = (tally.cache[r.cache ?? 'none'] ?? 0) + 1;
      tally.bytes += r.body.length;
      if (phase.recordEtags) {
        etags.set(path, r.etag);
        if (r.status === 200) {
          const b = JSON.parse(r.body.toString('utf8'));
          tally.contests.push(b.contests?.length ?? 0);
          tally.regions.push(b.regions?.length ?? 0);
        }
      } else if (etags.has(path) && r.etag !== etags.get(path)) tally.etagMismatch += 1;
    }
  };
  await Promise.all(Array.from({ length: o.connections }, worker));
  return tally;
}

let phase;
process.on('message', async (m) => {
  try {
    if (m.cmd === 'prepare') {
      phase = m.phase;
      await connect();
      process.send({ cmd: 'ready' });
    } else if (m.cmd === 'go') {
      const tally = await run(phase);
      // `done` first and bare, so the server's window closes before it parses the tally.
      process.send({ cmd: 'done' });
      process.send({ cmd: 'tally', tally });
    } else if (m.cmd === 'exit') {
      agent?.destroy();
      process.disconnect();
    }
  } catch (err) {
    process.send({ cmd: 'error', message: String(err?.stack ?? err) });
  }
});
process.send({ cmd: 'started' });

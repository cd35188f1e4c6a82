// An open-loop HTTP/1.1 load client on raw keep-alive sockets: requests leave at evenly
// spaced scheduled times whatever the server does, and each latency is counted from its
// scheduled time, so a stall is not hidden by sending less. It writes preformatted
// requests and reads only the status line, the headers it needs and Content-Length bytes
// of body, so it costs a fraction of node:http's client: on two shared cores the load
// generator's own CPU would otherwise show up as server latency.
import net from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection carrying one request at a time. */
class Connection {
  constructor(host, port, onDone) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.onDone = onDone;
    this.buffer = Buffer.alloc(0);
    this.current = undefined;
    /** Set once the socket is gone (the server closed an idle keep-alive connection, say). */
    this.closed = false;
    this.socket.on('data', (chunk) => this.read(chunk));
    this.socket.on('error', (err) => this.fail(err));
    this.socket.on('close', () => {
      this.closed = true;
      this.fail(new Error('connection closed'));
    });
  }

  /** Writing to a closed socket loses the request without an event, so callers check `closed` first. */
  send(request, raw) {
    this.current = request;
    this.socket.write(raw);
  }

  read(chunk) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0 || this.current === undefined) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (/\r\ntransfer-encoding:\s*chunked/i.test(head))
      return this.fail(new Error('chunked responses are not supported'));
    const total = end + HEADER_END.length + length;
    if (this.buffer.length < total) return;
    this.buffer = this.buffer.subarray(total);
    const request = this.current;
    this.current = undefined;
    const status = Number(head.slice(9, 12));
    const cache = /\r\ncivic-cache:\s*(\w+)/i.exec(head)?.[1];
    this.onDone(this, request, { status, cache });
  }

  fail(err) {
    const request = this.current;
    this.current = undefined;
    if (request !== undefined) this.onDone(undefined, request, { error: err });
  }

  close() {
    this.socket.removeAllListeners('close');
    this.socket.destroy();
  }
}

/**
 * Sends `rate` requests/s for `duration` s over `connections` sockets (GETs of
 * `nextPath()`, or POSTs of `bodyFor(path)` = {target, body} when given); a request due while
 * every socket is busy waits for the next free one (its wait counts). Resolves with the
 * latencies (ms) and counts.
 */
export async function pacedLoad({ url, rate, duration, connections, nextPath, headers, onCache, bodyFor }) {
  const { hostname, port } = new URL(url);
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  // `bodyFor(path)`, when given, makes each request a POST of that JSON body to the path.
  const raw =
    bodyFor === undefined
      ? (path) => `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n${extra}\r\n`
      : (path) => {
          const { target, body } = bodyFor(path);
          return `POST ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
        };
  const total = Math.floor(rate * duration);
  const intervalMs = 1000 / rate;
  const latencies = new Float64Array(total);
  const counts = { ok: 0, non2xx: 0, errors: 0, answered: 0 };
  const idle = [];
  const waiting = [];
  let finished = 0;
  let resolveAll;
  const all = new Promise((resolve) => (resolveAll = resolve));

  const dispatch = (conn) => {
    const next = waiting.shift();
    if (next === undefined) idle.push(conn);
    else conn.send(next, raw(next.path));
  };
  // Idle connections are taken oldest first, so every one keeps carrying requests and none
  // sits idle past the server's keep-alive timeout; one the server closed anyway is replaced.
  const takeIdle = () => {
    for (;;) {
      const conn = idle.shift();
      if (conn === undefined || !conn.closed) return conn;
      pool.push(new Connection(hostname, port, onDone));
      idle.push(pool[pool.length - 1]);
    }
  };
  const onDone = (conn, request, result) => {
    if (result.error !== undefined) counts.errors += 1;
    else {
      latencies[counts.answered++] = performance.now() - request.scheduled;
      if (result.status >= 200 && result.status < 300) counts.ok += 1;
      else counts.non2xx += 1;
      onCache(result.cache);
    }
    if (conn !== undefined) dispatch(conn);
    if (++finished === total) resolveAll();
  };
  const pool = Array.from({ length: connections }, () => new Connection(hostname, port, onDone));
  await Promise.all(
    pool.map(
      (c) =>
        new Promise((resolve, reject) => {
          c.socket.once('connect', resolve);
          c.socket.once('error', reject);
        }),
    ),
  );
  idle.push(...pool);

  const start = performance.now();
  let sent = 0;
  const tick = setInterval(() => {
    const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
    for (; sent < due; sent++) {
      const request = { scheduled: start + sent * intervalMs, path: nextPath() };
      const conn = takeIdle();
      if (conn === undefined) waiting.push(request);
      else conn.send(request, raw(request.path));
    }
    if (sent >= total) clearInterval(tick);
  }, 1);
  const giveUp = setTimeout(resolveAll, (duration + 15) * 1000);
  await all;
  clearTimeout(giveUp);
  clearInterval(tick);
  const seconds = (performance.now() - start) / 1000;
  for (const c of pool) c.close();
  return { latencies: latencies.subarray(0, counts.answered), seconds, ...counts, unanswered: total - finished };
}

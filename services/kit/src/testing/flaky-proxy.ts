import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (Redis, NATS). `down()` cuts every connection and
 * refuses new ones (accepts and drops them) until `up()`: a network outage, or a server
 * restart as its clients see it, without touching the server. `stall()` holds requests back
 * until `resume()`: a server that stops answering.
 */
const DEFAULT_PORTS: Record<string, number> = { 'redis:': 6379, 'nats:': 4222 };

export class FlakyProxy {
  private readonly sockets = new Set<Socket>();
  private readonly pairs: Array<[Socket, Socket]> = [];
  private isDown = false;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** A proxy to `target` (e.g. `redis://127.0.0.1:6379`); its `url` has the same scheme. */
  static async start(target: URL): Promise<FlakyProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const proxy = new FlakyProxy(server, `${target.protocol}//127.0.0.1:${port}`);
    server.on('connection', (client) => proxy.pipe(client, target));
    return proxy;
  }

  down(): void {
    this.isDown = true;
    for (const s of this.sockets) s.destroy();
  }

  up(): void {
    this.isDown = false;
  }

  stall(): void {
    for (const [client, upstream] of this.pairs) client.unpipe(upstream);
  }

  resume(): void {
    for (const [client, upstream] of this.pairs) client.pipe(upstream);
  }

  async stop(): Promise<void> {
    this.down();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pipe(client: Socket, target: URL): void {
    if (this.isDown) return void client.destroy();
    const upstream = tcpConnect(Number(target.port || DEFAULT_PORTS[target.protocol] || 0), target.hostname);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        this.sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    this.pairs.push([client, upstream]);
    client.pipe(upstream).pipe(client);
  }
}

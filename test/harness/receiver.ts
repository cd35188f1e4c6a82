import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a webhook receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback: answers 200 to everything and keeps what it got. */
export interface Receiver {
  /** `http://127.0.0.1:<port>`; endpoints add a path of their own. */
  url: string;
  received: Received[];
  /** The payloads sent to `path`, each verified with the `standardwebhooks` package (a bad signature throws). */
  verified(secret: string, path: string): any[];
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', (c) => (body += c))
      .on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body });
        res.writeHead(200).end();
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    verified: (secret, path) =>
      received
        .filter((r) => r.path === path)
        .map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP endpoint that forwards every request to `target` with an `Authorization: Bearer` header added. */
export interface BearerProxy {
  /** The proxy's address, e.g. `http://localhost:40123/mcp`. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Stands in for an MCP client configured with a bearer header (as desktop clients are) in
 * front of a client that cannot send one: the MCP conformance runner connects to a bare URL.
 * Everything else — method, path-independent body, headers, status, streamed answer — passes
 * through unchanged, so what is tested is the server behind it.
 */
export async function startBearerProxy(target: URL, key: string): Promise<BearerProxy> {
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, authorization: `Bearer ${key}` };
    const upstream = request(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/mcp`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

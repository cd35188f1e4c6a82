import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ArangoGraphStore, ArangoUnavailableError } from './arango-graph-store.js';

// What connect does before and without a server; everything else is in the .int.test.ts.
describe('ArangoGraphStore.connect', () => {
  it('rejects with ArangoUnavailableError naming the URL and database when nothing listens', async () => {
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const err = await ArangoGraphStore.connect({ url, database: 'civic' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArangoUnavailableError);
    expect((err as Error).message).toContain(url);
    expect((err as Error).message).toContain('"civic"');
  });

  it('refuses a database or prefix ArangoDB could not name, before connecting', async () => {
    const url = 'http://127.0.0.1:1';
    await expect(ArangoGraphStore.connect({ url, database: '_system2' })).rejects.toThrow(/database name "_system2"/);
    await expect(ArangoGraphStore.connect({ url, database: 'civic/../x' })).rejects.toThrow(RangeError);
    await expect(ArangoGraphStore.connect({ url, database: 'civic', prefix: 'bad prefix ' })).rejects.toThrow(
      /collection name "bad prefix nodes"/,
    );
  });
});

/** A loopback port nothing listens on: bound by the OS, then released. */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

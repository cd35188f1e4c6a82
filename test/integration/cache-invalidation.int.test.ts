import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { probeNats, serviceAvailability } from '@civicgraph/kit';
import { describeWithService } from '@civicgraph/kit/testing';
import { DENVER, get, startStack, type Stack } from '../harness/stack.js';

const dir = mkdtempSync(join(tmpdir(), 'civic-inval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A one-feature precinct file: a small square around a point, named `name`. */
function writePrecinct(path: string, name: string, around: { lat: number; lng: number }): void {
  const d = 0.01;
  const ring = [
    [around.lng - d, around.lat - d],
    [around.lng + d, around.lat - d],
    [around.lng + d, around.lat + d],
    [around.lng - d, around.lat + d],
    [around.lng - d, around.lat - d],
  ];
  writeFileSync(
    path,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { GEOID: '0803101', NAME: name },
          geometry: { type: 'Polygon', coordinates: [ring] },
        },
      ],
    }),
  );
}

function invalidationSuite(name: string, options: () => { natsUrl?: string; env: string }) {
  describe(`gateway geo cache over the ${name} bus`, () => {
    let stack: Stack;
    afterAll(() => stack?.stop());

    it('serves a cached answer, drops it on region.updated, and recomputes the next one', async () => {
      const file = join(dir, `${name}.geojson`);
      writePrecinct(file, 'Precinct One', DENVER);
      stack = await startStack({ ...options(), files: [{ level: Level.LEVEL_PRECINCT, path: file, state: 'co' }] });
      const key = await stack.key();
      const url = `${stack.url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`;
      const first = await get(url, key);
      expect(first.headers.get('civic-cache')).toBe('miss');
      const precinct = first.body.data.find((r: any) => r.level === 'precinct');
      expect(precinct.name).toBe('Precinct One');
      expect((await get(url, key)).headers.get('civic-cache')).toBe('hit');

      writePrecinct(file, 'Precinct Renamed', DENVER);
      const diff = await stack.geo.reload();
      expect(diff.updated).toEqual([precinct.slug]);
      await expect
        .poll(async () => (await get(url, key)).body.data.find((r: any) => r.level === 'precinct')?.name)
        .toBe('Precinct Renamed');
      expect((await get(url, key)).headers.get('civic-cache')).toBe('hit');
    });

    it('publishes nothing and keeps the cache when a reload changes nothing', async () => {
      const key = await stack.key();
      const url = `${stack.url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`;
      await get(url, key);
      const diff = await stack.geo.reload();
      expect(diff).toEqual({ created: [], updated: [], deleted: [] });
      expect((await get(url, key)).headers.get('civic-cache')).toBe('hit');
    });
  });
}

invalidationSuite('in-process', () => ({ env: 'test' }));

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const nats = await serviceAvailability(`NATS at ${natsUrl}`, () => probeNats(natsUrl));
describeWithService('NATS-backed invalidation', nats, () => {
  invalidationSuite('NATS JetStream', () => ({ natsUrl, env: `t${Date.now().toString(36)}` }));
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, Lifecycle, MemoryEventBus } from '@civicgraph/kit';
import { EmbeddedGeocoder, ZipRegistry, type Geocoder } from './geocode/index.js';
import { startGeoService } from './service.js';
import { DEFAULT_H3_RESOLUTION } from './domain/district-index.js';

const log = createLogger('test', 'silent');
const lifecycles: Lifecycle[] = [];
afterEach(async () => {
  for (const l of lifecycles.splice(0)) await l.stop('test done');
});

async function start(geocoder: Geocoder) {
  const lifecycle = new Lifecycle(log);
  lifecycles.push(lifecycle);
  const dir = mkdtempSync(join(tmpdir(), 'civic-geo-'));
  lifecycle.defer('temp dir', () => rmSync(dir, { recursive: true, force: true }));
  const bus = new MemoryEventBus();
  return startGeoService(
    {
      host: '127.0.0.1',
      port: 0,
      files: [],
      populationCsv: undefined,
      storePath: join(dir, 'geo'),
      storePollMs: 1_000,
      h3Resolution: DEFAULT_H3_RESOLUTION,
      geocoder: { kind: 'embedded' },
      natsUrl: undefined,
      env: 'test',
      logLevel: 'silent',
    },
    { bus, lifecycle, log, geocoder },
  );
}

describe('the geo service at start', () => {
  it('prepares its geocoder before it reports ready, so no request builds the ZIP table inside its deadline', async () => {
    const events: string[] = [];
    const geocoder: Geocoder = {
      prepare: () => events.push('prepared'),
      geocode: () => Promise.reject(new Error('not asked')),
    };
    await start(geocoder).then(() => events.push('started'));
    expect(events).toEqual(['prepared', 'started']);
  });

  it("the embedded geocoder's prepare builds its ZIP registry", async () => {
    let built = 0;
    const registry = new ZipRegistry([{ zip: '80202', point: { lat: 39.75, lng: -105 }, city: 'Denver', state: 'CO' }]);
    const geocoder = new EmbeddedGeocoder({ registry: () => (built++, registry) });
    geocoder.prepare();
    expect(built).toBe(1);
    expect((await geocoder.geocode('80202')).matched).toBe('80202 (Denver, CO)');
  });
});

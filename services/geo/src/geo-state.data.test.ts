import { readdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '@civicgraph/kit';
import { GeoState } from './geo-state.js';
import { importBoundaries } from './import/import-boundaries.js';
import { Level } from './domain/region.js';
import { LmdbBoundaryStore } from './store/lmdb-boundary-store.js';
import { pointsNearEdges, uniformPoints } from './domain/engine/test-data.js';
import { scaled } from '@civicgraph/kit/testing';

const tiger = sharedData('boundaries/congressional/tiger2022-cd118');
const CD = Level.LEVEL_CONGRESSIONAL_DISTRICT;
const V = { from: '2023-01-03', electionsFrom: '2022-01-01' };

describe.skipIf(tiger === undefined)('the geo state keeps its index as a snapshot', () => {
  const dir = mkdtempSync(join(tmpdir(), 'civic-geostate-'));
  const snapshotDir = join(dir, 'geo-index');
  const config = { files: [], populationCsv: undefined, h3Resolution: 5, snapshotDir };
  let store: LmdbBoundaryStore;
  let built: GeoState;

  beforeAll(async () => {
    store = LmdbBoundaryStore.open(join(dir, 'geo'));
    await importBoundaries(store, {
      path: [`${tiger}/tl_2022_08_cd118.shp`, `${tiger}/tl_2022_44_cd118.shp`],
      level: CD,
      validity: V,
    });
    built = new GeoState(config, store);
    expect(built.load().index).toBe('built');
  }, scaled(120_000));
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second state over the same store reads the snapshot, and answers exactly as the built one', () => {
    const restarted = new GeoState(config, store);
    const result = restarted.load();
    expect(result).toMatchObject({ index: 'snapshot', regions: built.current().index.regions.length });
    expect(result.set.version).toBe(built.current().version);
    const co = built.versions('region:co-cd-1');
    const points = [...uniformPoints(20_000, 7, [-125, 24, -66, 50]), ...pointsNearEdges(co, 5_000, 8)];
    const a = built.current().index;
    const b = restarted.current().index;
    const slugs = (rs: { slug: string; validity?: unknown }[]) =>
      rs.map((r) => `${r.slug}@${JSON.stringify(r.validity ?? null)}`).join(' ');
    const differ = points.filter(([lat, lng]) => slugs(a.lookup(lat, lng)) !== slugs(b.lookup(lat, lng)));
    expect(differ.slice(0, 5)).toEqual([]);
    // The same outlines, field for field.
    expect(restarted.versions('region:co-cd-1')[0]!.geometry).toEqual(co[0]!.geometry);
    expect(restarted.versions('region:ri-cd-2')[0]!.source).toEqual(built.versions('region:ri-cd-2')[0]!.source);
    expect(restarted.load().index).toBe('unchanged');
  });

  it(
    'an import names a new snapshot: the next load builds it and removes the old one',
    async () => {
      await importBoundaries(store, { path: `${tiger}/tl_2022_10_cd118.shp`, level: CD, validity: V });
      const state = new GeoState(config, store);
      const result = state.load();
      expect(result.index).toBe('built');
      expect(state.versions('region:de-cd-at-large')).toHaveLength(1);
      expect(readdirSync(snapshotDir).filter((n) => n.endsWith('.snapshot'))).toHaveLength(1);
      expect(new GeoState({ ...config, h3Resolution: 6 }, store).load().index).toBe('built');
    },
    scaled(120_000),
  );

  it(
    'a damaged snapshot is rebuilt, not served',
    () => {
      const [name] = readdirSync(snapshotDir).filter((n) => n.endsWith('.snapshot'));
      writeFileSync(join(snapshotDir, name!), 'CGSNAP01 but then nothing');
      const state = new GeoState({ ...config, h3Resolution: 6 }, store);
      expect(state.load().index).toBe('built');
      expect(state.versions('region:co-cd-8')).toHaveLength(1);
    },
    scaled(120_000),
  );
});

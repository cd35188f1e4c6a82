import { LmdbBoundaryStore, loadUsAtlas, type RegionRecord } from '@civicgraph/geo';
import { DEMO_MARKER, generateDemo, type DemoRegion, type GraphService } from '@civicgraph/graph';
import { ConfigError, restLevel, todayUtc, type Logger } from '@civicgraph/kit';

/** Regions the demo elections are invented over: us-atlas states and counties, and the districts of the boundary store at `geoStore`. */
export async function demoRegions(geoStore: string): Promise<DemoRegion[]> {
  const store = LmdbBoundaryStore.open(geoStore);
  let stored: RegionRecord[];
  try {
    stored = store.list();
  } finally {
    await store.close();
  }
  const records: RegionRecord[] = [...loadUsAtlas(), ...stored];
  const seen = new Set<string>();
  const out: DemoRegion[] = [];
  for (const r of records) {
    if (seen.has(r.slug)) continue;
    seen.add(r.slug);
    out.push({
      slug: r.slug,
      name: r.name,
      level: restLevel(r.level) as DemoRegion['level'],
      state: r.state,
      fips: r.fips,
      ocdId: r.ocdId,
    });
  }
  return out;
}

/**
 * Refuses to start on a data folder holding the other kind of data: real answers must never
 * mix with synthetic ones, nor a `--demo` banner sit over real data.
 */
export async function checkDataKind(graph: GraphService, demo: boolean, dataDir: string): Promise<void> {
  if ((await graph.store.stats()).nodes === 0) return;
  const holdsDemo = (await graph.store.getNodes([DEMO_MARKER])).length > 0;
  if (holdsDemo && !demo)
    throw new ConfigError(
      'CIVIC_DATA_DIR',
      `${dataDir} holds the synthetic demo graph (from civicgraph up --demo); start with --demo, or set CIVIC_DATA_DIR to another folder for real data.`,
    );
  if (!holdsDemo && demo)
    throw new ConfigError(
      'CIVIC_DATA_DIR',
      `${dataDir} holds real data; --demo needs a data folder of its own (set CIVIC_DATA_DIR to another folder).`,
    );
}

/**
 * Loads the synthetic demo dataset (`civicgraph up --demo`) into an empty graph; the demo
 * of an earlier start is left as it is. Every
 * node of it cites `synthetic` provenance, so no answer can pass it off as real.
 */
export async function loadDemoIfEmpty(graph: GraphService, geoStore: string, log: Logger): Promise<void> {
  if ((await graph.store.stats()).nodes > 0) return;
  const started = performance.now();
  let created = 0;
  for (const batch of generateDemo({ regions: await demoRegions(geoStore), today: todayUtc() }))
    created += (await graph.writer.apply(batch)).created;
  log.info(
    { nodes: created, ms: Math.round(performance.now() - started) },
    'demo election data loaded (synthetic, low confidence)',
  );
}

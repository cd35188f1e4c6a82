import { loadGeoJsonFile, loadUsAtlas, type BoundaryFile, type RegionRecord } from '@civicgraph/geo';
import { generateDemo, type DemoRegion, type GraphService } from '@civicgraph/graph';
import { restLevel, todayUtc, type Logger } from '@civicgraph/kit';

/** Regions the demo elections are invented over: us-atlas states and counties, and the demo boundary files' districts. */
export function demoRegions(files: readonly BoundaryFile[]): DemoRegion[] {
  const records: RegionRecord[] = [...loadUsAtlas(), ...files.flatMap((f) => loadGeoJsonFile(f.path, f.level, f.state === undefined ? {} : { state: f.state }).regions)];
  const seen = new Set<string>();
  const out: DemoRegion[] = [];
  for (const r of records) {
    if (seen.has(r.slug)) continue;
    seen.add(r.slug);
    out.push({ slug: r.slug, name: r.name, level: restLevel(r.level) as DemoRegion['level'], state: r.state, fips: r.fips, ocdId: r.ocdId });
  }
  return out;
}

/**
 * Loads the synthetic demo dataset into an empty graph, so `npm start` on a fresh machine
 * answers every query; a graph holding anything (a real import, or the demo from an earlier
 * start) is left as it is.
 */
export async function loadDemoIfEmpty(graph: GraphService, files: readonly BoundaryFile[], log: Logger): Promise<void> {
  if ((await graph.store.stats()).nodes > 0) return;
  const started = performance.now();
  let created = 0;
  for (const batch of generateDemo({ regions: demoRegions(files), today: todayUtc() })) created += (await graph.writer.apply(batch)).created;
  log.info({ nodes: created, ms: Math.round(performance.now() - started) }, 'demo election data loaded (synthetic, low confidence)');
}

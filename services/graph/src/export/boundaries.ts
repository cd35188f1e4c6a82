import { join } from 'node:path';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { GeoServiceClient } from '@civicgraph/protos/civic/geo/v1/geo';
import {
  call,
  clientOptions,
  fromServiceError,
  hasEntitlement,
  insecure,
  NotFoundError,
  principalMetadata,
} from '@civicgraph/kit';
import type { GraphSnapshot } from '../store/snapshot/graph-snapshot.js';
import { TextFile } from './formats/text-file.js';
import type { ExportRows } from './rows.js';
import type { WrittenFile } from './write-tables.js';

/** A region's outline in force on a date, as the geo service serves it to the key; undefined when it has none. */
export type BoundarySource = (
  p: Principal,
  slug: string,
  date: string,
) => Promise<{ geometryJson: string; validFrom: string; validTo: string } | undefined>;

/** Outlines asked of the geo service at once. */
const IN_FLIGHT = 8;
export const BOUNDARIES_FILE = 'boundaries.geojsonseq.gz';

/** Boundaries from the geo service over gRPC, asked as the key (its scope and `geography` apply there too). */
export function geoBoundaries(address: string): { source: BoundarySource; close: () => void } {
  const client = new GeoServiceClient(address, insecure(), clientOptions(30_000));
  const source: BoundarySource = async (p, slug, date) => {
    try {
      const b = await call(client.getBoundary.bind(client), { slug, date, simplifyMeters: 0 }, principalMetadata(p));
      return { geometryJson: b.geometryJson, validFrom: b.validFrom, validTo: b.validTo };
    } catch (err) {
      const e = fromServiceError(err, 'geo');
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  };
  return { source, close: () => client.close() };
}

/**
 * The export's regions' outlines as a GeoJSON text sequence (RFC 8142: each Feature after an
 * RS and ending with a newline), gzipped: one Feature per region of the export that has an
 * outline in force on `date` (the snapshot's day; outlines are versioned by date, so the
 * file is what the API answers for that day). Only for a key with `geography`, as every
 * layer serves geometry. Full detail, as stored.
 */
export async function writeBoundaries(
  snapshot: GraphSnapshot,
  rows: ExportRows,
  principal: Principal,
  source: BoundarySource,
  date: string,
  dir: string,
): Promise<WrittenFile | undefined> {
  if (!hasEntitlement(principal, 'geography')) return undefined;
  const path = join(dir, BOUNDARIES_FILE);
  const file = new TextFile(path, true);
  let count = 0;
  try {
    let batch: string[] = [];
    const flush = async () => {
      const found = await Promise.all(batch.map(async (slug) => ({ slug, b: await source(principal, slug, date) })));
      for (const { slug, b } of found) {
        if (b === undefined) continue;
        const feature = `{"type":"Feature","id":${JSON.stringify(slug)},"properties":${JSON.stringify({ slug, valid_from: b.validFrom || null, valid_to: b.validTo || null })},"geometry":${b.geometryJson}}`;
        await file.write(`\u001e${feature}\n`);
        count++;
      }
      batch = [];
    };
    for await (const node of snapshot.nodes('region')) {
      if (!rows.includes(node)) continue;
      batch.push(node.slug);
      if (batch.length >= IN_FLIGHT) await flush();
    }
    await flush();
    const written = await file.close();
    return { name: BOUNDARIES_FILE, table: 'boundaries', format: 'geojsonseq', rows: count, path, written };
  } catch (err) {
    file.destroy();
    throw err;
  }
}

import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { LmdbGraphStore } from '../store/lmdb/lmdb-graph-store.js';
import { storeOfParties } from './test-parties.js';
import { writeTables } from './write-tables.js';

/**
 * A table whose columns are not all in its first rows: parties past the first 1,000 (the
 * rows the columns are learned from) bring a new key, and a value that turns a string
 * column into a JSON one. Every file must still hold every key, as a full survey types it.
 */
const PARTIES = 1_500;
const enterprise: Principal = {
  keyId: 'key_tables_test',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_ENTERPRISE,
  pinnedVersion: '',
  rateLimitPerMinute: 0,
  entitlements: { contact: true, geography: true, states: [], tiers: [] },
};

const dataOf = (i: number): Record<string, unknown> => ({
  name: i === 1_300 ? 7 : `Party ${i}`,
  abbreviation: `P${i}`,
  ...(i === 1_200 ? { founded: 1854 } : {}),
});

let dir: string;
let store: LmdbGraphStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'civic-write-tables-'));
  store = await storeOfParties(join(dir, 'graph'), PARTIES, dataOf);
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('writeTables', () => {
  // No states: the rows are counted from the store's keys; a state: they are read to be counted.
  it.each([[[]], [['co']]])(
    'writes a column first seen past the learned rows, typed as a full survey types it (states %j)',
    async (states: string[]) => {
      const snapshot = await store.snapshot();
      const calls: [number, number][] = [];
      const out = join(dir, 'out');
      await mkdir(out);
      const spec = {
        kinds: ['party' as const],
        states,
        formats: ['csv' as const, 'ndjson' as const, 'parquet' as const],
        edges: false,
      };
      const files = await writeTables(snapshot, enterprise, spec, out, (w, t) => calls.push([w, t]));
      await snapshot.close();

      expect(files.map((f) => [f.name, f.rows])).toEqual([
        ['party.csv', PARTIES],
        ['party.ndjson.gz', PARTIES],
        ['party.parquet', PARTIES],
      ]);
      expect(calls.at(0)).toEqual([0, PARTIES]);
      expect(calls.at(-1)).toEqual([PARTIES, PARTIES]);

      const csv = (await readFile(join(out, 'party.csv'), 'utf8')).split('\r\n');
      expect(csv[0]).toBe('slug,kind,state,tier,rev,updated_at,abbreviation,founded,name');
      expect(csv).toHaveLength(PARTIES + 2);
      expect(csv[1]).toBe('party:p00000,party,,,1,2026-11-01T00:00:00.000Z,P0,,"""Party 0"""');
      expect(csv[1_201]).toBe('party:p01200,party,,,1,2026-11-01T00:00:00.000Z,P1200,1854,"""Party 1200"""');
      expect(csv[1_301]).toBe('party:p01300,party,,,1,2026-11-01T00:00:00.000Z,P1300,,7');

      const parquet = await parquetReadObjects({ file: await asyncBufferFromFile(join(out, 'party.parquet')) });
      expect(parquet).toHaveLength(PARTIES);
      // A reader parses a JSON column's text.
      expect(parquet[1_200]).toMatchObject({ slug: 'party:p01200', founded: 1854, name: 'Party 1200' });
      expect(parquet[1_300]).toMatchObject({ founded: null, name: 7 });

      const ndjson = gunzipSync(await readFile(join(out, 'party.ndjson.gz')))
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { data: unknown });
      expect(ndjson.map((r) => r.data)).toEqual(Array.from({ length: PARTIES }, (_, i) => dataOf(i)));
    },
  );
});

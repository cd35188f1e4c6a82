import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GraphWriter, LmdbGraphStore } from '@civicgraph/graph';
import { readCliConfig } from '../config.js';
import { exportCommand } from './export.js';
import { barLine } from './export-progress.js';

/**
 * `civicgraph export` on a real embedded store: a party and a person carrying contact
 * fields, written through the GraphWriter (so the outbox numbers their events); the export's
 * files hold them, contact fields only with --contact, and its manifest names the position.
 */
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'civic-cli-export-'));
  const store = await LmdbGraphStore.open(join(dir, 'graph'));
  await new GraphWriter({ store, env: 'test' }).apply({
    nodes: [
      { kind: 'party', slug: 'party:cli', state: '', tier: '', data: { name: 'CLI', abbreviation: 'CL' } },
      {
        kind: 'person',
        slug: 'person:cli-someone',
        state: 'co',
        tier: '',
        data: { name: 'Some One', contactEmails: ['one@example.org'] } as never,
      },
    ],
    edges: [],
  });
  await store.close();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const run = (args: string[]) => exportCommand(readCliConfig({ CIVIC_DATA_DIR: dir }), args);

describe('civicgraph export', () => {
  it('writes verified files and a manifest naming the position, without contact fields unless asked', async () => {
    const out = join(dir, 'out');
    const manifest = JSON.parse(await run(['--out', out, '--kinds', 'party,person', '--formats', 'ndjson', '--json']));
    expect(manifest.position.seq).toBeGreaterThanOrEqual(2);
    expect(manifest.policy).toMatchObject({ contact: false });
    expect(manifest.files.map((f: any) => f.name).sort()).toEqual([
      'edges.ndjson.gz',
      'party.ndjson.gz',
      'person.ndjson.gz',
    ]);
    const folder = join(out, manifest.id);
    for (const f of manifest.files) {
      const bytes = readFileSync(join(folder, f.name));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
    }
    const person = JSON.parse(gunzipSync(readFileSync(join(folder, 'person.ndjson.gz'))).toString('utf8'));
    expect(person.data).toEqual({ name: 'Some One' });
    expect(JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'))).toEqual(manifest);

    const withContact = JSON.parse(await run(['--out', out, '--kinds', 'person', '--contact', '--json']));
    const again = readFileSync(join(out, withContact.id, 'person.ndjson.gz'));
    expect(JSON.parse(gunzipSync(again).toString('utf8')).data.contactEmails).toEqual(['one@example.org']);
  });

  it('refuses an unknown kind naming --kinds, and a missing --out', async () => {
    await expect(run(['--out', join(dir, 'x'), '--kinds', 'candidate'])).rejects.toMatchObject({ field: 'kinds' });
    await expect(run([])).rejects.toMatchObject({ field: 'out' });
  });

  it('draws a bar of 20 cells with the share and the counts', () => {
    expect(barLine(45_000, 100_000)).toBe('exporting [#########···········] 45% 45,000/100,000 rows');
    expect(barLine(0, 0)).toBe('exporting [####################] 100% 0/0 rows');
  });
});

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SOURCES } from '../../services/ingest/src/registry.js';
import { DENVER, get, graphql } from '../harness/http.js';
import { scaled } from '@civicgraph/kit/testing';

const bin = fileURLToPath(new URL('../../services/cli/dist/bin.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'civic-e2e-'));
const env = { ...process.env, CIVIC_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', NATS_URL: '' };
let child: ChildProcess;
let stdout = '';
let url = '';
let sandboxKey = '';
let progress = '';

async function civicgraph(...args: string[]): Promise<string> {
  const { stdout: out } = await promisify(execFile)('node', [bin, ...args], { env });
  return out;
}

/** Starts `civicgraph up` with `args`; resolves once its banner is printed. */
async function startUp(
  args: string[],
  upEnv: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; stdout: () => string; stderr: () => string }> {
  let out = '';
  let err = '';
  const started = spawn('node', [bin, 'up', ...args], { env: upEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  started.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  started.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  // The first start loads every public source from ../shared/data: about a minute here, more on a busy machine.
  await vi.waitFor(
    () => {
      if (started.exitCode !== null) throw new Error(`civicgraph up exited ${started.exitCode}: ${err}`);
      expect(out).toContain('GraphiQL');
    },
    { timeout: scaled(400_000), interval: 250 },
  );
  return { child: started, stdout: () => out, stderr: () => err };
}

const curls = (banner: string) =>
  [...banner.matchAll(/curl -H "Authorization: Bearer (\S+)" "(\S+)"/g)].map((m) => ({ key: m[1]!, url: m[2]! }));
const methods = (provenance: { method: string }[]) => provenance.map((p) => p.method);

beforeAll(async () => {
  const started = await startUp([], env);
  child = started.child;
  stdout = started.stdout();
  url = /up at (http:\/\/\S+)/.exec(stdout)![1]!;
  sandboxKey = /sandbox key[^:]*: (cg_test_\w+)/.exec(stdout)![1]!;
  progress = started.stderr();
}, scaled(420_000));

afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('civicgraph up, driven over HTTP as a new user would', () => {
  it('loads every public source on its first start, showing its progress', async () => {
    expect(stdout).toContain('data: the public sources');
    for (const { id } of SOURCES)
      expect(progress).toMatch(new RegExp(`loading public sources \\[\\d+/${SOURCES.length}\\] ${id}: changed`));
    expect(progress).not.toContain('failed');
    const listed = await civicgraph('sources', 'list');
    expect(listed).toMatch(/fec-weball26\s+ok/);
  });

  it("prints a curl line that answers Denver's real 2024 ballot: certified contests with their candidates, nothing synthetic", async () => {
    const [ballot] = curls(stdout);
    expect(ballot!.url).toContain('date=2024-11-05');
    const res = await get(ballot!.url, ballot!.key);
    expect(res.status).toBe(200);
    const slugs = res.body.regions.map((r: { slug: string }) => r.slug);
    expect(slugs).toEqual(expect.arrayContaining(['region:co', 'region:co-denver-county', 'region:co-cd-1']));
    const contests = new Map<string, { candidacies: { person: string; provenance: { method: string }[] }[] }>(
      res.body.contests.map((c: { slug: string }) => [c.slug, c]),
    );
    expect(contests.get('contest:co-us-president-2024-general')?.candidacies.map((c) => c.person)).toEqual(
      expect.arrayContaining(['Kamala Harris', 'Donald J. Trump', 'Robert F. Kennedy Jr.']),
    );
    expect(contests.get('contest:co-cd-1-us-representative-2024-general')?.candidacies.map((c) => c.person)).toContain(
      'Diana DeGette',
    );
    expect(new Set(res.body.contests.map((c: { slug: string }) => c.slug)).size).toBe(res.body.contests.length);
    const cited = [...contests.values()].flatMap((c) => c.candidacies.flatMap((x) => methods(x.provenance)));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited).not.toContain('synthetic');
    expect((await fetch(`${url}/docs`)).status).toBe(200);
  });

  it("prints a curl line that answers Colorado's real officeholders", async () => {
    const officeholders = curls(stdout).find((c) => c.url.includes('/v1/officeholders'))!;
    const people: string[] = [];
    let next: string | null = officeholders.url;
    while (next !== null) {
      const res = await get(next, officeholders.key);
      expect(res.status).toBe(200);
      people.push(...res.body.data.map((o: { person: string }) => o.person));
      next = res.body.next_cursor === null ? null : `${officeholders.url}&cursor=${res.body.next_cursor}`;
    }
    expect(people).toEqual(
      expect.arrayContaining(['Jared Polis', 'Michael F. Bennet', 'John W. Hickenlooper', 'Diana DeGette']),
    );
  });

  it('GraphQL districtsAtPoint returns the same regions as REST', async () => {
    const rest = await get(`${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, sandboxKey);
    const gql = await graphql(url, sandboxKey, '{ districtsAtPoint(lat: 39.7392, lng: -104.9903) { slug } }');
    expect(gql.body.data.districtsAtPoint.map((r: { slug: string }) => r.slug)).toEqual(
      rest.body.data.map((r: { slug: string }) => r.slug),
    );
  });

  it('keys created and revoked by the CLI take effect on the running service', async () => {
    const created = JSON.parse(
      await civicgraph(
        'keys',
        'create',
        '--env',
        'test',
        '--plan',
        'build',
        '--entitlements',
        'contact,geography',
        '--states',
        'CO,DE',
        '--json',
      ),
    );
    expect(created.key).toMatch(/^cg_test_[0-9A-Za-z]{40}$/);
    expect(created.entitlements).toEqual({ contact: true, geography: true, states: ['co', 'de'], tiers: [] });
    const res = await get(`${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, created.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('civic-entitlements')).toBe('contact, geography, jurisdictions');
    const shown = JSON.parse(await civicgraph('keys', 'show', created.id));
    expect(shown).toMatchObject({ id: created.id, key_prefix: created.key_prefix, revoked_at: null });
    expect(JSON.stringify(shown)).not.toContain(created.key.slice(12));
    // Rotation from the CLI: the new key works at once, the old one through its grace period.
    const rotated = (await civicgraph('keys', 'rotate', created.id, '--grace-seconds', '600')).split('\n')[0]!;
    expect(rotated).toMatch(/^cg_test_/);
    expect((await get(`${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, rotated)).status).toBe(200);
    expect((await get(`${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, created.key)).status).toBe(
      200,
    );
    await civicgraph('keys', 'revoke', created.id);
    // Without NATS the CLI cannot announce the revocation; the gateway sees it within its principal cache TTL (5 s).
    for (const k of [created.key, rotated]) {
      await vi.waitFor(
        async () => expect((await get(`${url}/v1/districts_by_point?lat=1&lng=1`, k)).status).toBe(401),
        { timeout: scaled(15_000), interval: 500 },
      );
    }
  });

  /** A CLI command that exited 2 with `stderr`, as Promise.allSettled reports it. */
  const refusal = (stderr: unknown) => ({ status: 'rejected', reason: { code: 2, stderr } });

  it('the CLI refuses bad flags with a message naming them', async () => {
    // Independent commands, started together (each is a whole CLI start), settled together so
    // none is a rejection nobody handles while another is awaited.
    const [plan, states] = await Promise.allSettled([
      promisify(execFile)('node', [bin, 'keys', 'create', '--plan', 'gold'], { env }),
      promisify(execFile)('node', [bin, 'keys', 'create', '--states', 'CO,XX'], { env }),
    ]);
    expect(plan).toMatchObject(refusal(expect.stringContaining('plan')));
    expect(states).toMatchObject(refusal(expect.stringMatching(/xx/i)));
  });

  it(
    'imports boundaries from the CLI into the running service, which picks them up',
    async () => {
      const file = join(dataDir, 'precinct.geojson');
      const d = 0.005;
      const ring = [
        [DENVER.lng - d, DENVER.lat - d],
        [DENVER.lng + d, DENVER.lat - d],
        [DENVER.lng + d, DENVER.lat + d],
        [DENVER.lng - d, DENVER.lat + d],
        [DENVER.lng - d, DENVER.lat - d],
      ];
      writeFileSync(
        file,
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              properties: { GEOID: '0803177', NAME: 'Civic Center' },
              geometry: { type: 'Polygon', coordinates: [ring] },
            },
          ],
        }),
      );
      const summary = JSON.parse(
        await civicgraph(
          'import',
          'boundaries',
          file,
          '--level',
          'precinct',
          '--state',
          'CO',
          '--valid-from',
          '2020-01-01',
          '--json',
        ),
      );
      expect(summary).toMatchObject({
        files: [{ format: 'geojson', scale: 0 }],
        features: 1,
        change: { created: [expect.stringContaining('@2020-01-01')] },
      });
      const at = `${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`;
      // The service rebuilds its national index off to the side, then swaps it in.
      await vi.waitFor(
        async () =>
          expect((await get(at, sandboxKey)).body.data.map((r: { level: string }) => r.level)).toContain('precinct'),
        { timeout: scaled(120_000), interval: 250 },
      );
      const again = JSON.parse(
        await civicgraph(
          'import',
          'boundaries',
          file,
          '--level',
          'precinct',
          '--state',
          'CO',
          '--valid-from',
          '2020-01-01',
          '--json',
        ),
      );
      expect(again.change).toEqual({ created: [], updated: [], deleted: [], unchanged: 1 });
    },
    scaled(180_000),
  );

  it('refuses an import that is not what it claims, naming the file, and keeps serving', async () => {
    const bogus = join(dataDir, 'bogus.shp');
    writeFileSync(bogus, '{"type":"FeatureCollection","features":[]}');
    const refused = (...args: string[]) =>
      promisify(execFile)('node', [bin, 'import', 'boundaries', bogus, ...args], { env });
    // Independent refusals, started together (each is a whole CLI start) and settled together.
    const [notShp, missingLevel, undatedByAccident] = await Promise.allSettled([
      refused('--level', 'precinct', '--undated'),
      refused(),
      refused('--level', 'precinct'),
    ]);
    expect(notShp).toMatchObject(refusal(expect.stringContaining('file')));
    expect(missingLevel).toMatchObject(refusal(expect.stringContaining('level')));
    expect(undatedByAccident).toMatchObject(refusal(expect.stringContaining('--valid-from is required')));
    expect((await get(`${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, sandboxKey)).status).toBe(
      200,
    );
  });

  it('refuses an import that brings nothing or would delete districts, exiting non-zero with nothing changed', async () => {
    const at = `${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}&date=2025-06-01`;
    const before = (await get(at, sandboxKey)).body.data;
    const file = (name: string, features: unknown[]) => {
      writeFileSync(join(dataDir, name), JSON.stringify({ type: 'FeatureCollection', features }));
      return join(dataDir, name);
    };
    const cd = ['--level', 'congressional-district', '--valid-from', '2023-01-03'];
    const refused = (...args: string[]) => promisify(execFile)('node', [bin, 'import', 'boundaries', ...args], { env });
    const nan = {
      type: 'Feature',
      properties: { STATEFP: '08', CD118FP: '01' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [null, 39],
            [-104, 39],
            [-104, 40],
            [null, 39],
          ],
        ],
      },
    };
    // A stored precinct map (the import above) that a new file would empty of its one district.
    const elsewhere = {
      type: 'Feature',
      properties: { GEOID: '0803178', NAME: 'Elsewhere' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-105, 40],
            [-104.9, 40],
            [-104.9, 40.1],
            [-105, 40],
          ],
        ],
      },
    };
    const precinct = ['--level', 'precinct', '--state', 'CO', '--valid-from', '2020-01-01'];
    // Independent refusals, none of which may write, started together (each is a whole CLI start) and settled together.
    const [empty, malformed, shrink] = await Promise.allSettled([
      refused(file('empty.geojson', []), ...cd),
      refused(file('nan.geojson', [nan]), ...cd),
      refused(file('precinct-moved.geojson', [elsewhere]), ...precinct),
    ]);
    expect(empty).toMatchObject(refusal(expect.stringMatching(/file: .*no usable feature.*Nothing was changed/)));
    expect(malformed).toMatchObject(refusal(expect.stringContaining('1 malformed_geometry')));
    expect(shrink).toMatchObject(refusal(expect.stringContaining('deletions need --replace')));
    expect((await get(at, sandboxKey)).body.data).toEqual(before);
  });

  it('shuts down gracefully on SIGTERM and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});

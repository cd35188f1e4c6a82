import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DENVER, get, graphql } from '../harness/stack.js';

const bin = fileURLToPath(new URL('../../services/cli/dist/bin.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'civic-e2e-'));
const env = { ...process.env, CIVIC_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', NATS_URL: '' };
let child: ChildProcess;
let stdout = '';
let url = '';
let sandboxKey = '';

async function civicgraph(...args: string[]): Promise<string> {
  const { stdout: out } = await promisify(execFile)('node', [bin, ...args], { env });
  return out;
}

beforeAll(async () => {
  child = spawn('node', [bin, 'up'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  await vi.waitFor(() => expect(stdout).toContain('GraphiQL'), { timeout: 60_000, interval: 100 });
  url = /up at (http:\/\/\S+)/.exec(stdout)![1]!;
  sandboxKey = /sandbox key[^:]*: (cg_test_\w+)/.exec(stdout)![1]!;
}, 90_000);

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('civicgraph up, driven over HTTP as a new user would', () => {
  it('prints a key and a curl line that answers Denver\'s ballot on the next election day', async () => {
    const curl = /curl -H "Authorization: Bearer (\S+)" "(\S+)"/.exec(stdout);
    expect(curl).not.toBeNull();
    const res = await get(curl![2]!, curl![1]!);
    expect(res.status).toBe(200);
    const slugs = res.body.regions.map((r: { slug: string }) => r.slug);
    expect(slugs).toContain('region:co');
    expect(slugs).toContain('region:co-denver-county');
    expect(res.body.contests.length).toBeGreaterThan(0);
    expect(res.body.contests[0].candidacies.length).toBeGreaterThan(0);
    expect((await fetch(`${url}/docs`)).status).toBe(200);
  });

  it('GraphQL districtsAtPoint returns the same regions as REST', async () => {
    const rest = await get(`${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, sandboxKey);
    const gql = await graphql(url, sandboxKey, '{ districtsAtPoint(lat: 39.7392, lng: -104.9903) { slug } }');
    expect(gql.body.data.districtsAtPoint.map((r: { slug: string }) => r.slug)).toEqual(rest.body.data.map((r: { slug: string }) => r.slug));
  });

  it('keys created and revoked by the CLI take effect on the running service', async () => {
    const created = JSON.parse(await civicgraph('keys', 'create', '--env', 'test', '--plan', 'build', '--entitlements', 'contact,geography', '--states', 'CO,DE', '--json'));
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
    expect((await get(`${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, created.key)).status).toBe(200);
    await civicgraph('keys', 'revoke', created.id);
    // Without NATS the CLI cannot announce the revocation; the gateway sees it within its principal cache TTL (5 s).
    for (const k of [created.key, rotated]) {
      await vi.waitFor(async () => expect((await get(`${url}/v1/districts_by_point?lat=1&lng=1`, k)).status).toBe(401), { timeout: 15_000, interval: 500 });
    }
  });

  it('the CLI refuses bad flags with a message naming them', async () => {
    const run = promisify(execFile)('node', [bin, 'keys', 'create', '--plan', 'gold'], { env });
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('plan') });
    const states = promisify(execFile)('node', [bin, 'keys', 'create', '--states', 'CO,XX'], { env });
    await expect(states).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/xx/i) });
  });

  it('imports boundaries from the CLI into the running service, which picks them up', async () => {
    const file = join(dataDir, 'precinct.geojson');
    const d = 0.005;
    const ring = [[DENVER.lng - d, DENVER.lat - d], [DENVER.lng + d, DENVER.lat - d], [DENVER.lng + d, DENVER.lat + d], [DENVER.lng - d, DENVER.lat + d], [DENVER.lng - d, DENVER.lat - d]];
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { GEOID: '0803177', NAME: 'Civic Center' }, geometry: { type: 'Polygon', coordinates: [ring] } }] }));
    const summary = JSON.parse(await civicgraph('import', 'boundaries', file, '--level', 'precinct', '--state', 'CO', '--valid-from', '2020-01-01', '--json'));
    expect(summary).toMatchObject({ format: 'geojson', features: 1, change: { created: [expect.stringContaining('@2020-01-01')] } });
    const at = `${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`;
    await vi.waitFor(async () => expect((await get(at, sandboxKey)).body.data.map((r: { level: string }) => r.level)).toContain('precinct'), { timeout: 15_000, interval: 250 });
    const again = JSON.parse(await civicgraph('import', 'boundaries', file, '--level', 'precinct', '--state', 'CO', '--valid-from', '2020-01-01', '--json'));
    expect(again.change).toEqual({ created: [], updated: [], deleted: [], unchanged: 1 });
  });

  it('refuses an import that is not what it claims, naming the file, and keeps serving', async () => {
    const bogus = join(dataDir, 'bogus.shp');
    writeFileSync(bogus, '{"type":"FeatureCollection","features":[]}');
    const run = promisify(execFile)('node', [bin, 'import', 'boundaries', bogus, '--level', 'precinct', '--undated'], { env });
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('file') });
    const missingLevel = promisify(execFile)('node', [bin, 'import', 'boundaries', bogus], { env });
    await expect(missingLevel).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('level') });
    const undatedByAccident = promisify(execFile)('node', [bin, 'import', 'boundaries', bogus, '--level', 'precinct'], { env });
    await expect(undatedByAccident).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--valid-from is required') });
    expect((await get(`${url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, sandboxKey)).status).toBe(200);
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
    await expect(refused(file('empty.geojson', []), ...cd)).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/file: .*no usable feature.*Nothing was changed/) });
    const nan = { type: 'Feature', properties: { STATEFP: '08', CD118FP: '01' }, geometry: { type: 'Polygon', coordinates: [[[null, 39], [-104, 39], [-104, 40], [null, 39]]] } };
    await expect(refused(file('nan.geojson', [nan]), ...cd)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('1 malformed_geometry') });
    // A stored precinct map (the import above) that a new file would empty of its one district.
    const elsewhere = { type: 'Feature', properties: { GEOID: '0803178', NAME: 'Elsewhere' }, geometry: { type: 'Polygon', coordinates: [[[-105, 40], [-104.9, 40], [-104.9, 40.1], [-105, 40]]] } };
    const shrink = file('precinct-moved.geojson', [elsewhere]);
    const precinct = ['--level', 'precinct', '--state', 'CO', '--valid-from', '2020-01-01'];
    await expect(refused(shrink, ...precinct)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('deletions need --replace') });
    expect((await get(at, sandboxKey)).body.data).toEqual(before);
  });

  it('shuts down gracefully on SIGTERM and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});

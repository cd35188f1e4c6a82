import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { get, startStack, type Stack } from '../harness/stack.js';
import { MAP_SOURCES } from '../harness/sources.js';
import { preparedMaps } from '../harness/prepared-maps.js';
import { scaled } from '@civicgraph/kit/testing';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'civic-readme-'));

/** The README's boundary walkthrough: the first `sh` block under "## Importing boundaries". */
function walkthrough(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Importing boundaries'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (block === null) throw new Error('README.md has no sh block under "## Importing boundaries"');
  return block[1]!;
}

// The README's sample points, and more from the shared data's sanity-check table.
const POINTS = {
  coloradoCapitol: { lat: 39.73923, lng: -104.98475 },
  boulder: { lat: 40.0181, lng: -105.2795 },
  greensboro: { lat: 36.0726, lng: -79.792 },
  rhodeIslandStateHouse: { lat: 41.8308, lng: -71.415 },
  dover: { lat: 39.1573, lng: -75.5197 },
  juneau: { lat: 58.3019, lng: -134.4197 },
  concord: { lat: 43.2081, lng: -71.5376 },
};
const DATES = ['2023-06-01', '2024-06-01', '2024-11-05', '2025-01-03', '2026-11-03'];

let stack: Stack;
let key: string;
let ran: { stdout: string; stderr: string };

const lookup = async (p: { lat: number; lng: number }, date: string) => {
  const res = await get(`${stack.url}/v1/districts_by_point?lat=${p.lat}&lng=${p.lng}&date=${date}`, key);
  expect(res.status).toBe(200);
  return res.body.data as { slug: string; level: string; roles: string[]; valid_from: string | null }[];
};

beforeAll(async () => {
  // The folder as `npm start` leaves it (its first start loads the registry's maps), then the walkthrough on it.
  cpSync(await preparedMaps(MAP_SOURCES), dataDir, { recursive: true });
  ran = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', walkthrough()], {
    cwd: root,
    env: { ...process.env, CIVIC_DATA_DIR: dataDir },
  });
  stack = await startStack({ dataDir });
  key = await stack.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 100_000 });
}, scaled(240_000));
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the README's boundary walkthrough, pasted as written into the data folder `npm start` made", () => {
  it('runs, every import succeeding without refusals', () => {
    expect(ran.stdout).toMatch(/tl_2022_08_cd118\.shp: shapefile/);
    expect(ran.stdout).toMatch(/tl_2022_44_cd118\.shp: shapefile/);
    expect(ran.stdout).not.toMatch(/[1-9]\d* deleted/);
  });

  it('gives one district per level and role at each sample point on each date', async () => {
    for (const [name, point] of Object.entries(POINTS)) {
      for (const date of DATES) {
        const regions = await lookup(point, date);
        const levels = new Set(regions.map((r) => r.level));
        expect(levels, `${name} on ${date}`).toContain('congressional-district');
        for (const level of levels) {
          for (const role of ['serving', 'electing']) {
            const found = regions.filter((r) => r.level === level && r.roles.includes(role)).map((r) => r.slug);
            expect(found, `${name} on ${date}: ${role} ${level}`).toHaveLength(1);
          }
        }
      }
    }
  });

  it('answers as the README says at the Colorado capitol, in Greensboro and in Concord', async () => {
    const cds = async (p: { lat: number; lng: number }, date: string) =>
      (await lookup(p, date))
        .filter((r) => r.level === 'congressional-district')
        .map(({ slug, roles, valid_from }) => ({ slug, roles, valid_from }));
    for (const date of ['2023-06-01', '2024-11-05', '2025-01-03', '2026-11-03']) {
      expect(await cds(POINTS.coloradoCapitol, date), date).toEqual([
        { slug: 'region:co-cd-1', roles: ['serving', 'electing'], valid_from: '2023-01-03' },
      ]);
    }
    const [capitol] = (await lookup(POINTS.coloradoCapitol, '2024-11-05')).filter(
      (r) => r.level === 'congressional-district',
    );
    expect(capitol).toMatchObject({ precision: 'full', source: 'tl_2022_08_cd118.shp', scale_denominator: null });
    expect(await cds(POINTS.greensboro, '2024-11-05')).toEqual([
      { slug: 'region:nc-cd-5', roles: ['electing'], valid_from: '2025-01-03' },
      { slug: 'region:nc-cd-6', roles: ['serving'], valid_from: '2023-01-03' },
    ]);
    const concord = (await cds(POINTS.concord, '2024-06-01')).sort((a, b) =>
      (a.valid_from ?? '') < (b.valid_from ?? '') ? -1 : 1,
    );
    expect(concord).toEqual([
      { slug: 'region:nh-cd-2', roles: ['serving'], valid_from: '2023-01-03' },
      { slug: 'region:nh-cd-2', roles: ['electing'], valid_from: '2025-01-03' },
    ]);
    const nc6 = await get(`${stack.url}/v1/regions/region:nc-cd-6`, key);
    expect(
      nc6.body.versions.map((v: { source: string; precision: string; valid_to: string | null }) => [
        v.source,
        v.precision,
        v.valid_to,
      ]),
    ).toEqual([
      ['tl_2022_37_cd118.shp', 'full', '2025-01-03'],
      ['cb_2024_us_cd119_20m', 'generalized', null],
    ]);
    const nh2 = await get(`${stack.url}/v1/regions/region:nh-cd-2`, key);
    expect(
      nh2.body.versions.map((v: { source: string; valid_from: string; scale_denominator: number }) => [
        v.source,
        v.valid_from,
        v.scale_denominator,
      ]),
    ).toEqual([
      ['cb_2023_us_cd118_20m.zip', '2023-01-03', 20_000_000],
      ['cb_2024_us_cd119_20m', '2025-01-03', 20_000_000],
    ]);
    const co1 = await get(`${stack.url}/v1/regions/region:co-cd-1`, key);
    expect(co1.body.versions.map((v: { source: string }) => v.source)).toEqual(['tl_2022_08_cd118.shp']);
  });
});

import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parquetMetadata } from 'hyparquet';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { ALL_CONTACT_FIELDS } from '@civicgraph/kit';
import { scaled } from '@civicgraph/kit/testing';
import { get, send, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';
import { ndjsonRows } from '../harness/exports.js';

/** /v1/exports over real HTTP: plans, bad input, the job, the manifest, downloads and signed links. */

let s: Stack;
let build: string;
let enterprise: string;
let enterpriseContact: string;
let scoped: string;

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  build = await s.key();
  enterprise = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 10_000 });
  enterpriseContact = await s.key({
    plan: Plan.PLAN_ENTERPRISE,
    rateLimitPerMinute: 10_000,
    entitlements: { contact: true, geography: true, states: [], tiers: [] },
  });
  scoped = await s.key({
    plan: Plan.PLAN_ENTERPRISE,
    rateLimitPerMinute: 10_000,
    entitlements: { contact: false, geography: true, states: ['co'], tiers: [] },
  });
}, scaled(60_000));
afterAll(() => s?.stop());

const call = (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
  send(`${s.url}${path}`, method, key, body, headers);

async function finished(key: string, id: string) {
  // vi.waitFor, not expect.poll: this also runs in beforeAll.
  return vi.waitFor(
    async () => {
      const job = (await get(`${s.url}/v1/exports/${id}`, key)).body;
      if (job.status !== 'succeeded') throw new Error(`export ${id} is ${job.status}`);
      return job;
    },
    { timeout: scaled(30_000), interval: 100 },
  );
}

async function download(url: string, key?: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    headers: { ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }), ...headers },
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('/v1/exports: who may export', () => {
  it('refuses an Explore key as plan_required naming the layer', async () => {
    const explore = await s.key({ plan: Plan.PLAN_EXPLORE });
    const res = await get(`${s.url}/v1/exports`, explore);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ type: 'plan_required', field: 'bulk_export' });
  });

  it('refuses an on-demand export to a Build key as plan_required naming Enterprise', async () => {
    const res = await call('POST', '/v1/exports', build, {});
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type: 'plan_required', field: 'bulk_export' });
    expect(res.body.detail).toContain('enterprise');
    expect(res.headers.get('civic-ratelimit-limit')).not.toBeNull();
  });

  it.each([
    ['an unknown kind', { kinds: ['candidate'] }, 400, 'invalid_parameter', 'kinds'],
    ['an unknown format', { formats: ['xlsx'] }, 400, 'invalid_parameter', 'formats'],
    ['a malformed state', { states: ['colorado'] }, 400, 'invalid_parameter', 'states'],
    ['kinds that are not a list', { kinds: 'candidacy' }, 400, 'invalid_parameter', 'kinds'],
    ['an unknown field', { kind: ['candidacy'] }, 400, 'invalid_parameter', 'kind'],
    ['edges that are not a boolean', { edges: 'no' }, 400, 'invalid_parameter', 'edges'],
    ['malformed JSON', '{"kinds":', 400, 'invalid_parameter', 'body'],
  ])('refuses %s as problem+json naming the field', async (_, body, status, type, field) => {
    const res = await call('POST', '/v1/exports', enterprise, body);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ type, field });
  });

  it("refuses a state outside the key's scope as out_of_scope", async () => {
    const res = await call('POST', '/v1/exports', scoped, { states: ['ca'] });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ type: 'out_of_scope', field: 'states' });
  });
});

describe('/v1/exports: an on-demand export', () => {
  let job: any;

  beforeAll(async () => {
    const res = await call(
      'POST',
      '/v1/exports',
      enterprise,
      { kinds: ['candidacy', 'party'] },
      { 'Idempotency-Key': 'k1' },
    );
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/v1/exports/${res.body.id}`);
    expect(res.body).toMatchObject({ object: 'export', cadence: 'on_demand', manifest: null });
    job = await finished(enterprise, res.body.id);
  }, scaled(60_000));

  it('answers a repeated Idempotency-Key with the same job, and refuses it with another request', async () => {
    const again = await call(
      'POST',
      '/v1/exports',
      enterprise,
      { kinds: ['party', 'candidacy'] },
      { 'Idempotency-Key': 'k1' },
    );
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(job.id);
    const other = await call('POST', '/v1/exports', enterprise, { kinds: ['party'] }, { 'Idempotency-Key': 'k1' });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ type: 'invalid_parameter', field: 'Idempotency-Key' });
  });

  it('publishes a manifest: every file of every format, with rows, checksums, the position and the policy', async () => {
    const m = job.manifest;
    expect(m.schema_version).toBe(1);
    expect(m.position.seq).toBeGreaterThan(0);
    expect(m.policy).toEqual({ environment: 'test', contact: false, states: [], tiers: [] });
    expect(m.files.map((f: any) => f.name).sort()).toEqual([
      'candidacy.csv',
      'candidacy.ndjson.gz',
      'candidacy.parquet',
      'edges.csv',
      'edges.ndjson.gz',
      'edges.parquet',
      'party.csv',
      'party.ndjson.gz',
      'party.parquet',
    ]);
    const candidacies = m.files.filter((f: any) => f.table === 'candidacy');
    expect(new Set(candidacies.map((f: any) => f.rows)).size).toBe(1);
    expect(candidacies[0].rows).toBeGreaterThan(0);
    expect(job.progress.rows_written).toBe(job.progress.rows_total);
  });

  it('serves each file whole, its bytes matching the checksum, ETag and Repr-Digest', async () => {
    for (const f of job.manifest.files) {
      const res = await download(`${s.url}/v1/exports/${job.id}/files/${f.name}`, enterprise);
      expect(res.status, f.name).toBe(200);
      expect(res.bytes.length).toBe(f.bytes);
      expect(sha256(res.bytes)).toBe(f.sha256);
      expect(res.headers.get('etag')).toBe(`"${f.sha256}"`);
      expect(res.headers.get('civic-checksum-sha256')).toBe(f.sha256);
      expect(res.headers.get('repr-digest')).toBe(`sha-256=:${Buffer.from(f.sha256, 'hex').toString('base64')}:`);
      if (f.format === 'ndjson') expect(ndjsonRows(res.bytes)).toHaveLength(f.rows);
      if (f.format === 'parquet')
        expect(Number(parquetMetadata(res.bytes.buffer as ArrayBuffer).num_rows)).toBe(f.rows);
      if (f.format === 'csv')
        expect(new TextDecoder().decode(res.bytes).split('\r\n')[0]).toMatch(/^slug,kind,|^kind,from,to,key/);
    }
  });

  it('answers a Range with 206 and the slice, If-None-Match with 304, and a range past the end with 416', async () => {
    const f = job.manifest.files.find((x: any) => x.name === 'candidacy.csv');
    const url = `${s.url}/v1/exports/${job.id}/files/${f.name}`;
    const whole = (await download(url, enterprise)).bytes;
    const part = await download(url, enterprise, { Range: 'bytes=10-99' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-99/${f.bytes}`);
    expect(Buffer.from(part.bytes).equals(Buffer.from(whole.subarray(10, 100)))).toBe(true);
    const tail = await download(url, enterprise, { Range: 'bytes=-5' });
    expect(Buffer.from(tail.bytes).equals(Buffer.from(whole.subarray(whole.length - 5)))).toBe(true);
    expect((await download(url, enterprise, { 'If-None-Match': `"${f.sha256}"` })).status).toBe(304);
    const past = await download(url, enterprise, { Range: `bytes=${f.bytes + 10}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${f.bytes}`);
  });

  it('serves a signed link without a key until it is tampered with', async () => {
    const f = job.manifest.files.find((x: any) => x.name === 'party.ndjson.gz');
    expect(Date.parse(f.url_expires_at)).toBeGreaterThan(Date.now());
    const ok = await download(f.url);
    expect(ok.status).toBe(200);
    expect(sha256(ok.bytes)).toBe(f.sha256);
    const forged = await download(
      f.url.replace(/signature=[0-9a-f]/, 'signature=0').replace('party.ndjson.gz', 'candidacy.ndjson.gz'),
    );
    expect(forged.status).toBe(404);
    const later = await download(f.url.replace(/expires=\d+/, 'expires=9999999999'));
    expect(later.status).toBe(404);
  });

  it("is not another key's: 404 for its files and its job", async () => {
    const other = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 10_000 });
    expect((await get(`${s.url}/v1/exports/${job.id}`, other)).status).toBe(404);
    expect((await download(`${s.url}/v1/exports/${job.id}/files/party.csv`, other)).status).toBe(404);
    expect((await get(`${s.url}/v1/exports`, other)).body.data.map((j: any) => j.id)).not.toContain(job.id);
  });
});

describe('/v1/exports: shaped by the policy', () => {
  async function candidacyRows(key: string, body: object) {
    const res = await call('POST', '/v1/exports', key, {
      kinds: ['candidacy', 'region'],
      formats: ['ndjson'],
      ...body,
    });
    expect(res.status).toBe(202);
    const job = await finished(key, res.body.id);
    const rows = async (table: string) =>
      ndjsonRows<any>((await download(`${s.url}/v1/exports/${job.id}/files/${table}.ndjson.gz`, key)).bytes);
    return { job, candidacies: await rows('candidacy'), regions: await rows('region') };
  }

  it('holds contact fields only for a key with contact', async () => {
    const without = await candidacyRows(enterprise, {});
    const withContact = await candidacyRows(enterpriseContact, {});
    const contactIn = (rows: any[]) =>
      rows.some((r) => ALL_CONTACT_FIELDS.some((f) => f in r.data || f in (r.data.fields ?? {})));
    expect(contactIn(without.candidacies)).toBe(false);
    expect(contactIn(withContact.candidacies)).toBe(true);
    expect(withContact.job.manifest.policy.contact).toBe(true);
    expect(without.candidacies.length).toBe(withContact.candidacies.length);
  });

  it("holds only the key's states (and national nodes), and narrows further to the states asked", async () => {
    const { job, candidacies, regions } = await candidacyRows(scoped, {});
    expect(job.manifest.policy.states).toEqual(['co']);
    expect(candidacies.length).toBeGreaterThan(0);
    expect(candidacies.filter((r) => r.state !== 'co' && r.state !== '').map((r) => r.slug)).toEqual([]);
    expect(regions.filter((r) => r.state !== 'co' && r.state !== '').map((r) => r.slug)).toEqual([]);
    const all = await candidacyRows(enterprise, { states: ['co'] });
    expect(all.candidacies.map((r) => r.slug)).toEqual(candidacies.map((r) => r.slug));
  });
});

describe('/v1/exports: boundaries', () => {
  it("carries the regions' outlines as a GeoJSON sequence for a key with geography, and none without", async () => {
    const noGeography = await s.key({
      plan: Plan.PLAN_ENTERPRISE,
      rateLimitPerMinute: 10_000,
      entitlements: { contact: false, geography: false, states: [], tiers: [] },
    });
    const start = async (key: string) =>
      (await call('POST', '/v1/exports', key, { kinds: ['region'], formats: ['csv'], edges: false })).body.id as string;
    const withGeo = await finished(scoped, await start(scoped));
    const without = await finished(noGeography, await start(noGeography));
    const file = withGeo.manifest.files.find((f: any) => f.table === 'boundaries');
    expect(file).toMatchObject({ name: 'boundaries.geojsonseq.gz', format: 'geojsonseq' });
    expect(file.rows).toBeGreaterThan(0);
    const bytes = (await download(file.url)).bytes;
    const text = gunzipSync(bytes).toString('utf8');
    const features = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        expect(l.startsWith('\u001e')).toBe(true);
        return JSON.parse(l.slice(1));
      });
    expect(features).toHaveLength(file.rows);
    expect(features.every((f) => f.type === 'Feature' && /Polygon/.test(f.geometry.type))).toBe(true);
    // Only the key's states: Colorado's regions (and the nation's, where it has an outline).
    expect(features.every((f) => f.id === 'region:us' || f.id.startsWith('region:co'))).toBe(true);
    expect(without.manifest.files.map((f: any) => f.table)).toEqual(['region']);
  });
});

describe('/v1/exports: the monthly exports', () => {
  it("gives a Build key this month's export of its shape, made once for all keys of that shape", async () => {
    const first = await get(`${s.url}/v1/exports`, build);
    expect(first.status).toBe(200);
    const monthly = first.body.data.filter((j: any) => j.cadence === 'monthly');
    expect(monthly).toHaveLength(1);
    const twin = await s.key();
    expect((await get(`${s.url}/v1/exports`, twin)).body.data.map((j: any) => j.id)).toContain(monthly[0].id);
    const done = await finished(build, monthly[0].id);
    expect(done.manifest.files.map((f: any) => f.table)).toEqual(
      expect.arrayContaining(['candidacy', 'region', 'edges']),
    );
  });

  it('lists bulk_export as callable in /v1/meta/layers', async () => {
    const res = await get(`${s.url}/v1/meta/layers`, build);
    expect(res.body.data.find((l: any) => l.name === 'bulk_export')).toMatchObject({
      api: 'beta',
      path: '/v1/exports',
      available_to_key: true,
    });
  });
});

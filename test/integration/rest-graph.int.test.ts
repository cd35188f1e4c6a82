import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo, type DemoRegion } from '@civicgraph/graph';
import { VersionRegistry } from '@civicgraph/kit';
import { DENVER, get, startStack, type Stack } from '../harness/stack.js';
import {
  DEMO_REGIONS as REGIONS,
  DEMO_TODAY as TODAY,
  NEXT_GENERAL,
  PAST_GENERAL,
  CONTACT_FIELDS,
} from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

/** A newer version whose downgrade (to 2026-11-01) renames the ballot's `contests`. */
const versions = new VersionRegistry();
versions.register('2027-06-01', (endpoint, body) => {
  if (endpoint !== 'getBallot') return body;
  const { contests, ...rest } = body as { contests: unknown };
  return { ...rest, races: contests };
});

let s: Stack;
let key: string;
let contactKey: string;
let deKey: string;
const at = (path: string) => `${s.url}${path}`;
const ballotUrl = (extra = '') => at(`/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}${extra}`);
const pinned = { 'Civic-Version': '2027-06-01' };

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY }, versions });
  key = await s.key({ pinnedVersion: '' });
  contactKey = await s.key({ entitlements: { contact: true, geography: true, states: [], tiers: [] } });
  deKey = await s.key({ entitlements: { contact: false, geography: true, states: ['de'], tiers: [] } });
}, scaled(60_000));
afterAll(() => s?.stop());

describe('GET /v1/ballot', () => {
  it("answers the spec's ballot object: the point, its regions, the contests with their candidacies", async () => {
    const res = await get(ballotUrl(), key, pinned);
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b.point).toEqual(DENVER);
    expect(b.regions).toEqual(
      expect.arrayContaining([
        { slug: 'region:co', name: 'Colorado', level: 'state', precision: 'generalized' },
        expect.objectContaining({ slug: 'region:co-denver-county', level: 'county' }),
      ]),
    );
    expect(b.contests.length).toBeGreaterThan(2);
    expect(b.contests.flatMap((c: { candidacies: unknown[] }) => c.candidacies).length).toBeGreaterThan(0);
    for (const c of b.contests) {
      expect(c).toMatchObject({
        slug: expect.stringMatching(/^contest:/),
        office: expect.any(String),
        date: NEXT_GENERAL,
      });
      for (const x of c.candidacies) {
        // On a ballot: only candidacies whose ballot access is established.
        expect(['ON_BALLOT', 'WRITE_IN']).toContain(x.ballot_access);
        expect(x).toMatchObject({
          person: expect.any(String),
          confidence: expect.any(Number),
          slug: expect.stringMatching(/^candidacy:/),
        });
        expect(typeof x.party === 'string' || x.party === null).toBe(true);
        expect(x).toHaveProperty('is_incumbent');
        expect(x.provenance.length).toBeGreaterThan(0);
        for (const f of CONTACT_FIELDS) expect(x).not.toHaveProperty(f);
      }
    }
    expect(res.headers.get('cache-control')).toBe('private, max-age=300');
    expect(res.headers.get('vary')).toBe('Authorization, Civic-Version');
  });

  it('shows the contact fields only to a key with the contact entitlement', async () => {
    const res = await get(ballotUrl(), contactKey, pinned);
    const candidacy = res.body.contests[0].candidacies[0];
    for (const f of CONTACT_FIELDS) expect(Array.isArray(candidacy[f])).toBe(true);
  });

  it('filters candidacies by min_confidence and refuses one out of range, naming it', async () => {
    const all = (await get(ballotUrl(), key, pinned)).body.contests.flatMap((c: any) => c.candidacies);
    const threshold = [...all.map((c: any) => c.confidence)].sort((a, b) => a - b)[Math.floor(all.length / 2)];
    const kept = (await get(ballotUrl(`&min_confidence=${threshold}`), key, pinned)).body.contests.flatMap(
      (c: any) => c.candidacies,
    );
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(all.length);
    expect(kept.every((c: any) => c.confidence >= threshold)).toBe(true);
    expect((await get(ballotUrl('&min_confidence=1.5'), key)).body).toMatchObject({
      status: 400,
      type: 'invalid_parameter',
      field: 'min_confidence',
    });
  });

  it('is empty on a day without elections, and refuses bad input naming the parameter', async () => {
    expect(
      (await get(at(`/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=2031-02-02`), key, pinned)).body.contests,
    ).toEqual([]);
    for (const [query, field] of [
      ['lat=91&lng=0', 'lat'],
      ['lat=1&lng=x', 'lng'],
      ['lat=1', 'lng'],
      ['lat=1&lng=1&date=2026-02-30', 'date'],
      ['lat=1&lng=1&lat=2', 'lat'],
      ['lat=1&lng=1&zoom=3', 'zoom'],
      ['lat=1&lng=1&cursor=abc', 'cursor'],
    ] as const) {
      const res = await get(at(`/v1/ballot?${query}`), key);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ type: 'invalid_parameter', field });
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });
});

describe('versions', () => {
  it('serves the newest shape to a caller asking for it, and the downgraded one to a caller pinned to the older version', async () => {
    const newest = await get(ballotUrl(), key, pinned);
    expect(newest.headers.get('civic-version')).toBe('2027-06-01');
    expect(newest.body).toHaveProperty('contests');
    const older = await get(ballotUrl(), key, { 'Civic-Version': '2026-11-01' });
    expect(older.headers.get('civic-version')).toBe('2026-11-01');
    expect(older.body).not.toHaveProperty('contests');
    expect(older.body.races).toEqual(newest.body.contests);
    expect(older.headers.get('etag')).not.toBe(newest.headers.get('etag'));
    // Other endpoints are untouched by a downgrade that does not name them.
    const list = await get(at('/v1/contests?state=co'), key, { 'Civic-Version': '2026-11-01' });
    expect(list.body.data.length).toBeGreaterThan(0);
  });

  it('echoes the version on refusals too', async () => {
    const unauthenticated = await get(ballotUrl(), undefined, { 'Civic-Version': '2026-11-01' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('civic-version')).toBe('2026-11-01');
    expect((await get(ballotUrl(), 'cg_test_nope')).headers.get('civic-version')).toBe('2027-06-01');
  });

  it('refuses an unknown version with 400 listing the known ones', async () => {
    const res = await get(ballotUrl(), key, { 'Civic-Version': '2025-01-01' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'unsupported_version', field: 'Civic-Version' });
    expect(res.body.detail).toContain('2026-11-01');
    expect(res.body.detail).toContain('2027-06-01');
  });
});

describe('lists: contests, candidacies, officeholders, election dates', () => {
  it('pages /v1/contests with signed cursors: every contest once, and a cursor only for its own query', async () => {
    const all = await get(at('/v1/contests?state=co&limit=200'), key, pinned);
    expect(all.body.next_cursor).toBeNull();
    const total = all.body.data.length;
    expect(total).toBeGreaterThan(4);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await get(
        at(`/v1/contests?state=co&limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`),
        key,
        pinned,
      );
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((c: any) => c.slug));
      cursor = res.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(all.body.data.map((c: any) => c.slug));
    const first = await get(at('/v1/contests?state=co&limit=3'), key, pinned);
    const other = await get(
      at(`/v1/contests?state=de&limit=3&cursor=${encodeURIComponent(first.body.next_cursor)}`),
      key,
      pinned,
    );
    expect(other.body).toMatchObject({ status: 400, type: 'invalid_parameter', field: 'cursor' });
    const tampered = `${first.body.next_cursor.slice(0, -2)}xx`;
    expect(
      (await get(at(`/v1/contests?state=co&limit=3&cursor=${encodeURIComponent(tampered)}`), key, pinned)).body,
    ).toMatchObject({ status: 400, field: 'cursor' });
    expect((await get(at('/v1/contests?state=co&limit=201'), key)).body).toMatchObject({ status: 400, field: 'limit' });
    expect((await get(at('/v1/contests?state=zz'), key)).body).toMatchObject({ status: 400, field: 'state' });
    expect((await get(at('/v1/contests'), key)).body).toMatchObject({ status: 400, field: 'state' });
    expect((await get(at('/v1/contests?state=co&level=galaxy'), key)).body).toMatchObject({
      status: 400,
      field: 'level',
    });
  });

  it('keeps pages stable while contests are inserted between them: nothing skipped, nothing repeated', async () => {
    const url = (cursor: string | null) =>
      at(`/v1/contests?state=de&limit=4${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    const before = (await get(at('/v1/contests?state=de&limit=200'), key, pinned)).body.data.map((c: any) => c.slug);
    const first = (await get(url(null), key, pinned)).body;
    // A new county's contests land all over the ordering (every election day), between pages.
    const sussex: DemoRegion = {
      slug: 'region:de-sussex-county',
      name: 'Sussex County',
      level: 'county',
      state: 'de',
      fips: '10005',
      ocdId: 'ocd-division/country:us/state:de/county:sussex',
    };
    for (const batch of generateDemo({ regions: [REGIONS[1]!, sussex], today: TODAY, seed: 99 }))
      await s.graph.writer.apply(batch);
    const seen: string[] = first.data.map((c: any) => c.slug);
    let cursor: string | null = first.next_cursor;
    while (cursor !== null) {
      const page: any = (await get(url(cursor), key, pinned)).body;
      seen.push(...page.data.map((c: any) => c.slug));
      cursor = page.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const slug of before) expect(seen).toContain(slug);
    expect(seen.some((slug) => slug.includes('sussex'))).toBe(true);
  });

  it('filters contests by level and date; contest and candidacy lookups agree with the lists', async () => {
    const counties = (await get(at(`/v1/contests?state=CO&level=county&date=${NEXT_GENERAL}`), key, pinned)).body.data;
    expect(counties.length).toBeGreaterThan(0);
    expect(
      counties.every(
        (c: any) => c.level === 'county' && c.date === NEXT_GENERAL && c.region.slug.startsWith('region:co-'),
      ),
    ).toBe(true);
    expect(counties[0]).not.toHaveProperty('candidacies');
    const contest = (await get(at(`/v1/contests/${counties[0].slug}`), key, pinned)).body;
    expect(contest).toMatchObject({ slug: counties[0].slug, office: counties[0].office, date: NEXT_GENERAL });
    const listed = (await get(at(`/v1/candidacies?contest=${counties[0].slug}`), key, pinned)).body.data;
    expect(listed.map((c: any) => c.slug).sort()).toEqual(contest.candidacies.map((c: any) => c.slug).sort());
    const one = await get(at(`/v1/candidacies/${listed[0].slug}`), key, pinned);
    expect(one.body).toEqual(listed[0]);
    expect((await get(at(`/v1/candidacies/${listed[0].slug}?min_confidence=1`), key)).status).toBe(404);
  });

  it("hides what is out of a key's scope: absent from lists, 404 on lookups like a slug that does not exist", async () => {
    const co = (await get(at('/v1/contests?state=co&limit=1'), key, pinned)).body.data[0];
    expect((await get(at('/v1/contests?state=co'), deKey)).body.data).toEqual([]);
    const hidden = await get(at(`/v1/contests/${co.slug}`), deKey);
    const missing = await get(at('/v1/contests/contest:co-nowhere-mayor-2030-general'), deKey);
    expect(hidden.status).toBe(404);
    expect({ ...hidden.body, detail: '', request_id: '' }).toEqual({ ...missing.body, detail: '', request_id: '' });
    expect((await get(at('/v1/contests?state=de'), deKey)).body.data.length).toBeGreaterThan(0);
  });

  it('lists who holds the offices of a region, and the election dates of a state', async () => {
    const holders = (await get(at(`/v1/officeholders?region=region:co&date=2027-06-01`), key, pinned)).body;
    expect(holders.data.length).toBeGreaterThan(0);
    expect(holders.data[0]).toMatchObject({
      person: expect.any(String),
      office: expect.any(String),
      office_slug: expect.stringMatching(/^office:/),
    });
    expect((await get(at('/v1/officeholders'), key)).body).toMatchObject({ status: 400, type: 'invalid_parameter' });
    const dates = (await get(at(`/v1/election_dates?state=co&from=${TODAY}`), key, pinned)).body.data;
    expect(dates.map((d: any) => d.date)).toContain(NEXT_GENERAL);
    expect(dates.every((d: any) => d.date >= TODAY)).toBe(true);
    expect((await get(at('/v1/election_dates?state=co&from=2027-01-01&to=2026-01-01'), key)).body).toMatchObject({
      status: 400,
      field: 'to',
    });
  });

  it('answers certified results with votes and vote shares', async () => {
    const past = (await get(at(`/v1/contests?state=co&date=${PAST_GENERAL}&level=state`), key, pinned)).body.data[0];
    const r = (await get(at(`/v1/results?contest=${past.slug}`), key, pinned)).body;
    expect(r.contest).toBe(past.slug);
    expect(r.data.length).toBeGreaterThanOrEqual(2);
    const total = r.data.reduce((n: number, c: any) => n + c.votes, 0);
    for (const c of r.data) expect(c.vote_share).toBeCloseTo(c.votes / (r.total_votes ?? total), 6);
    expect(r.data.map((c: any) => c.votes)).toEqual(
      [...r.data.map((c: any) => c.votes)].sort((a: number, b: number) => b - a),
    );
    expect((await get(at('/v1/results'), key)).body).toMatchObject({ status: 400, field: 'contest' });
  });
});

describe('caching', () => {
  it('answers a revalidation with the same strong ETag 304, uncounted; the ETag changes when the data does', async () => {
    const url = at('/v1/contests?state=co&limit=5');
    const first = await get(url, key, pinned);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(url, key, pinned);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('civic-cache')).toBe('hit');
    const remaining = Number(again.headers.get('civic-ratelimit-remaining'));
    const revalidated = await get(url, key, { ...pinned, 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(Number(revalidated.headers.get('civic-ratelimit-remaining'))).toBe(remaining);
  });

  it('drops a cached answer when a data-change event names what it shows: the ETag changes with the data', async () => {
    const list = (await get(at(`/v1/contests?state=co&date=${NEXT_GENERAL}`), key, pinned)).body.data;
    const url = at(`/v1/contests/${list[list.length - 1].slug}`);
    const before = await get(url, key, pinned);
    const etag = before.headers.get('etag')!;
    expect((await get(url, key, pinned)).headers.get('civic-cache')).toBe('hit');
    const target = before.body.candidacies.find((c: any) => c.filing_status !== 'WITHDRAWN');
    await s.graph.writer.moveCandidacy(
      target.slug,
      { filingStatus: 'WITHDRAWN' },
      'provenance:demo-synthetic-registry',
    );
    // The graph's outbox relay publishes the event; the gateway's invalidator drops the entry.
    await expect
      .poll(
        async () =>
          (await get(url, key, pinned)).body.candidacies.find((c: any) => c.slug === target.slug).filing_status,
        { timeout: scaled(5_000) },
      )
      .toBe('WITHDRAWN');
    const after = await get(url, key, { ...pinned, 'If-None-Match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
  });
});

describe('ballots of points in the same districts', () => {
  it('are the same, and a data change reaches a point asked about for the first time afterwards', async () => {
    const near = (lat: number, lng: number) =>
      get(at(`/v1/ballot?lat=${lat}&lng=${lng}&date=${NEXT_GENERAL}`), key, pinned);
    const a = (await near(39.7392, -104.9903)).body;
    const b = (await near(39.7501, -104.9902)).body;
    expect(b.regions).toEqual(a.regions);
    expect(b.contests).toEqual(a.contests);
    const target = a.contests
      .flatMap((c: any) => c.candidacies)
      .find((c: any) => c.filing_status !== 'WITHDRAWN' && c.filing_status !== null);
    await s.graph.writer.moveCandidacy(
      target.slug,
      { filingStatus: 'WITHDRAWN' },
      'provenance:demo-synthetic-registry',
    );
    let lat = 39.7402;
    await expect
      .poll(
        async () => {
          lat += 0.0001; // a point never asked about: only the cache of ballots by districts could answer it
          return (await near(lat, -104.9903)).body.contests
            .flatMap((c: any) => c.candidacies)
            .find((c: any) => c.slug === target.slug).filing_status;
        },
        { timeout: scaled(5_000) },
      )
      .toBe('WITHDRAWN');
  });
});

describe('requests Node refuses before any route', () => {
  it('answers headers over 16 KB with a 431 problem+json, not a bare status line', async () => {
    const res = await new Promise<{ status: number; type: string; requestId: unknown; body: string }>(
      (resolve, reject) => {
        const req = request(
          at('/v1/meta/layers'),
          { headers: { Authorization: `Bearer ${key}`, 'X-Padding': 'x'.repeat(20_000) } },
          (r) => {
            let body = '';
            r.on('data', (d) => (body += d));
            r.on('end', () =>
              resolve({
                status: r.statusCode!,
                type: String(r.headers['content-type']),
                requestId: r.headers['civic-request-id'],
                body,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    expect(res.status).toBe(431);
    expect(res.type).toBe('application/problem+json');
    const problem = JSON.parse(res.body);
    expect(problem).toMatchObject({
      type: 'headers_too_large',
      title: 'Request header fields too large',
      status: 431,
      field: 'headers',
    });
    expect(problem.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(res.requestId).toBe(problem.request_id);
  });
});

describe('meta', () => {
  it('lists every query layer with its data and api status', async () => {
    const res = await get(at('/v1/meta/layers'), key);
    expect(res.body.data.map((l: any) => l.name)).toEqual([
      'rest',
      'graphql',
      'cypher',
      'agent',
      'webhooks',
      'bulk_export',
    ]);
    for (const l of res.body.data)
      expect(Object.keys(res.body.statuses)).toEqual(expect.arrayContaining([l.data, l.api]));
  });
});

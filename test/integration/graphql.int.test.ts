import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { DENVER, get, graphql, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY, NEXT_GENERAL, PAST_GENERAL } from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

/** The spec's nested selection on the ballot. */
const BALLOT = `query Ballot($lat: Float!, $lng: Float!, $date: Date!) {
  ballotAtPoint(lat: $lat, lng: $lng, date: $date) {
    slug
    office { name level }
    region { name fips population }
    candidacies { slug person { name } party { name } isIncumbent confidence }
  }
}`;

let s: Stack;
let build: string;
let explore: string;
let enterprise: string;
let contact: string;
let noGeography: string;

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  build = await s.key();
  explore = await s.key({ plan: Plan.PLAN_EXPLORE });
  enterprise = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 10_000 });
  contact = await s.key({ entitlements: { contact: true, geography: true, states: [], tiers: [] } });
  noGeography = await s.key({ entitlements: { contact: false, geography: false, states: [], tiers: [] } });
}, scaled(60_000));
afterAll(() => s?.stop());

const ballot = (key: string) => graphql(s.url, key, BALLOT, { ...DENVER, date: NEXT_GENERAL });

describe('GraphQL ballotAtPoint', () => {
  it("answers the spec's nested selection, with regions' population merged from geo", async () => {
    const res = await ballot(build);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const contests = res.body.data.ballotAtPoint;
    expect(contests.length).toBeGreaterThan(2);
    for (const c of contests) {
      expect(c.slug).toMatch(/^contest:/);
      expect(c.office.name).toEqual(expect.any(String));
      expect(c.office.level).toMatch(/^[A-Z_]+$/);
      expect(c.region.name).toEqual(expect.any(String));
    }
    // Only candidacies whose ballot access is established are on a ballot (some demo ones are pending).
    expect(contests.flatMap((c: any) => c.candidacies).length).toBeGreaterThan(0);
    const colorado = contests.find((c: any) => c.region.name === 'Colorado');
    expect(colorado.region).toMatchObject({ fips: '08', population: expect.any(Number) });
    expect(colorado.region.population).toBeGreaterThan(5_000_000);
  });

  it('gives the same contests, candidacies and confidences as the REST ballot', async () => {
    const rest = (await get(`${s.url}/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}`, build)).body;
    const gql = (await ballot(build)).body.data.ballotAtPoint;
    const view = (contests: any[], slugOf: (x: any) => string) =>
      contests.map((c) => [
        c.slug,
        c.candidacies.map((x: any) => [slugOf(x), x.confidence, x.is_incumbent ?? x.isIncumbent]),
      ]);
    expect(view(gql, (x) => x.slug)).toEqual(view(rest.contests, (x) => x.slug));
  });

  it('reports what the operation was scored at', async () => {
    const res = await ballot(build);
    expect(res.body.extensions.cost).toMatchObject({
      requested: expect.any(Number),
      depth: 4,
      ceiling: { depth: 12, cost: 10_000 },
    });
  });
});

describe('same answers as REST', () => {
  it('lists the same contests of a state, with the same fields', async () => {
    const rest = (await get(`${s.url}/v1/contests?state=co&date=${NEXT_GENERAL}&limit=200`, build)).body.data;
    const gql = (
      await graphql(
        s.url,
        build,
        `{ contests(state: "CO", electionDate: "${NEXT_GENERAL}") { slug name date seats special office { name } region { slug fips } level type } }`,
      )
    ).body.data.contests;
    expect(
      gql.map((c: any) => [
        c.slug,
        c.name,
        c.date,
        c.seats,
        c.special,
        c.office.name,
        c.region.slug,
        c.region.fips,
        c.level.toLowerCase().replaceAll('_', '-'),
        c.type.toLowerCase(),
      ]),
    ).toEqual(
      rest.map((c: any) => [
        c.slug,
        c.name,
        c.date,
        c.seats,
        c.special,
        c.office,
        c.region.slug,
        c.region.fips,
        c.level,
        c.type,
      ]),
    );
  });

  it('gives a candidacy the same fields, sources and confidence as REST', async () => {
    const slug = (await ballot(build)).body.data.ballotAtPoint[0].candidacies[0].slug;
    const rest = (await get(`${s.url}/v1/candidacies/${encodeURIComponent(slug)}`, build)).body;
    const gql = (
      await graphql(
        s.url,
        build,
        `
          query ($slug: ID!) {
            candidacy(slug: $slug) {
              slug
              name
              person {
                slug
                name
              }
              contest {
                slug
              }
              party {
                slug
                name
              }
              isIncumbent
              filingStatus
              ballotAccess
              campaignWebsite
              confidence
              provenance {
                slug
                source
                method
              }
              fieldConfidence {
                field
                confidence
                provenance
              }
            }
          }
        `,
        { slug },
      )
    ).body.data.candidacy;
    expect({
      slug: gql.slug,
      person: gql.person.name,
      person_slug: gql.person.slug,
      contest: gql.contest.slug,
      party: gql.party?.name ?? null,
      party_slug: gql.party?.slug ?? null,
      is_incumbent: gql.isIncumbent,
      filing_status: gql.filingStatus,
      ballot_access: gql.ballotAccess,
      campaign_website: gql.campaignWebsite,
      confidence: gql.confidence,
      provenance: gql.provenance.map((p: any) => p.slug),
      fields: gql.fieldConfidence.map((f: any) => [f.confidence, f.provenance]),
    }).toEqual({
      slug: rest.slug,
      person: rest.person,
      person_slug: rest.person_slug,
      contest: rest.contest,
      party: rest.party,
      party_slug: rest.party_slug,
      is_incumbent: rest.is_incumbent,
      filing_status: rest.filing_status,
      ballot_access: rest.ballot_access,
      campaign_website: rest.campaign_website,
      confidence: rest.confidence,
      provenance: rest.provenance.map((p: any) => p.slug),
      fields: rest.field_confidence.map((f: any) => [f.confidence, f.provenance]),
    });
  });

  it('answers null for a candidacy that does not exist, as REST answers 404', async () => {
    expect((await graphql(s.url, build, '{ candidacy(slug: "candidacy:nobody-here") { slug } }')).body).toMatchObject({
      data: { candidacy: null },
    });
    expect((await get(`${s.url}/v1/candidacies/candidacy:nobody-here`, build)).status).toBe(404);
  });

  it('sends the same Civic headers and counts against the same per-key budget', async () => {
    const key = await s.key({ plan: Plan.PLAN_EXPLORE });
    await get(`${s.url}/v1/election_dates?state=co`, key);
    const res = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(res.headers.get('civic-ratelimit-limit')).toBe('60');
    expect(Number(res.headers.get('civic-ratelimit-remaining'))).toBeLessThanOrEqual(58);
    expect(res.headers.get('civic-entitlements')).toBe('geography, jurisdictions');
    expect(res.headers.get('civic-version')).toEqual(expect.any(String));
  });
});

describe('entitlement-shaped schema', () => {
  const fieldsOf = async (key: string, type: string) =>
    (await graphql(s.url, key, `{ __type(name: "${type}") { fields { name } } }`)).body.data.__type?.fields.map(
      (f: any) => f.name,
    ) ?? [];

  it('has no contact fields for a key without contact, and has them with it', async () => {
    expect(await fieldsOf(build, 'Candidacy')).not.toEqual(expect.arrayContaining(['campaignEmails']));
    expect(await fieldsOf(build, 'TeamContact')).toEqual([]);
    expect(await fieldsOf(contact, 'Candidacy')).toEqual(
      expect.arrayContaining(['campaignEmails', 'campaignPhones', 'campaignTeam']),
    );
  });

  it("refuses a query naming a contact field as entitlement_required, with the field's path", async () => {
    const res = await graphql(
      s.url,
      build,
      `{ ballotAtPoint(lat: ${DENVER.lat}, lng: ${DENVER.lng}, date: "${NEXT_GENERAL}") { candidacies { slug emails: campaignEmails } } }`,
    );
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].extensions).toMatchObject({
      type: 'entitlement_required',
      entitlement: 'contact',
      field: 'Candidacy.campaignEmails',
      path: ['ballotAtPoint', 'candidacies', 'emails'],
    });
  });

  it('answers contact fields to a key with contact', async () => {
    const res = await graphql(
      s.url,
      contact,
      `{ ballotAtPoint(lat: ${DENVER.lat}, lng: ${DENVER.lng}, date: "${NEXT_GENERAL}") { candidacies { campaignEmails } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(
      res.body.data.ballotAtPoint.flatMap((c: any) => c.candidacies).some((x: any) => x.campaignEmails.length > 0),
    ).toBe(true);
  });

  it('refuses point lookups to a key without geography the same way, and still answers it contests', async () => {
    const point = await graphql(
      s.url,
      noGeography,
      `
        {
          districtsAtPoint(lat: 1, lng: 2) {
            slug
          }
        }
      `,
    );
    expect(point.body.errors[0].extensions).toMatchObject({
      type: 'entitlement_required',
      entitlement: 'geography',
      path: ['districtsAtPoint'],
    });
    const ballotRes = await ballot(noGeography);
    expect(ballotRes.body.errors[0].extensions).toMatchObject({
      type: 'entitlement_required',
      path: ['ballotAtPoint'],
    });
    const listed = await graphql(s.url, noGeography, '{ contests(state: "CO") { slug } }');
    expect(listed.body.errors).toBeUndefined();
  });
});

describe('budgets', () => {
  /** candidacy { contest { candidacies { contest … { slug } } } }: depth 2n + 2; within Explore's cost at n = 2, Enterprise's at n = 4. */
  const deep = (slug: string, n: number) =>
    `{ candidacy(slug: "${slug}") { ${'contest { candidacies { '.repeat(n)}slug${' } }'.repeat(n)} } }`;
  let candidacy: string;
  beforeAll(async () => {
    candidacy = (await ballot(build)).body.data.ballotAtPoint[0].candidacies[0].slug;
  });

  it('refuses an Explore query deeper than 8 before it runs, naming the path, its depth and the ceiling', async () => {
    const res = await graphql(s.url, explore, deep(candidacy, 4));
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].extensions).toMatchObject({
      type: 'query_too_complex',
      limit: 'depth',
      score: 10,
      ceiling: 8,
    });
    expect(res.body.errors[0].extensions.path).toEqual([
      'candidacy',
      ...Array(4).fill(['contest', 'candidacies']).flat(),
      'slug',
    ]);
    expect((await graphql(s.url, explore, deep(candidacy, 2))).body.errors).toBeUndefined();
    const deep10 = await graphql(s.url, enterprise, deep(candidacy, 4));
    expect(deep10.body.errors).toBeUndefined();
    expect(deep10.body.extensions.cost).toMatchObject({ depth: 10, ceiling: { depth: 16, cost: 50_000 } });
  });

  it("refuses a query over the plan's cost, naming where the cost sits", async () => {
    const res = await graphql(
      s.url,
      explore,
      '{ contests(state: "CO") { candidacies { provenance { slug source } positions { slug } person { name } } } }',
    );
    expect(res.body.errors[0].extensions).toMatchObject({
      type: 'query_too_complex',
      limit: 'cost',
      ceiling: 1_000,
      path: ['contests', 'candidacies', 'provenance'],
    });
    expect(res.body.errors[0].extensions.score).toBeGreaterThan(1_000);
    // Aggregates belong in Cypher: the refusal says where to go.
    expect(res.body.errors[0].message).toContain('aggregate in Cypher (POST /v1/cypher');
  });
});

describe('result cache', () => {
  const ask = (key: string, query: string, variables: Record<string, unknown> = {}) =>
    fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    }).then(async (r) => ({ cache: r.headers.get('civic-cache'), body: (await r.json()) as any }));
  const FILING =
    'query($lat: Float!, $lng: Float!, $date: Date!) { ballotAtPoint(lat: $lat, lng: $lng, date: $date) { slug candidacies { slug filingStatus } } }';

  it('answers a repeated operation from the cache, the same as it ran, and keeps callers of other policies apart', async () => {
    const vars = { lat: 39.7301, lng: -104.9702, date: NEXT_GENERAL };
    const first = await ask(build, FILING, vars);
    expect(first.cache).toBe('miss');
    const second = await ask(build, FILING, vars);
    expect(second.cache).toBe('hit');
    expect(second.body).toEqual(first.body);
    expect((await ask(contact, FILING, vars)).cache).toBe('miss');
    expect((await ask(build, FILING, { ...vars, date: PAST_GENERAL })).cache).toBe('miss');
  });

  it('keys a result by its Accept header too: each media type gets the answer graphql-http gives it', async () => {
    const vars = { lat: 39.7321, lng: -104.9722, date: NEXT_GENERAL };
    const asked = (accept: string) =>
      fetch(`${s.url}/graphql`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${build}`, 'Content-Type': 'application/json', Accept: accept },
        body: JSON.stringify({ query: FILING, variables: vars }),
      }).then(async (r) => ({
        cache: r.headers.get('civic-cache'),
        type: r.headers.get('content-type'),
        body: await r.json(),
      }));
    const json = await asked('application/json');
    const again = await asked('application/json');
    const official = await asked('application/graphql-response+json');
    expect([json.cache, again.cache, official.cache]).toEqual(['miss', 'hit', 'miss']);
    expect(again.type).toBe(json.type);
    expect(json.type).toMatch(/^application\/json/);
    expect(official.type).toMatch(/^application\/graphql-response\+json/);
    expect(official.body).toEqual(json.body);
  });

  it('drops a cached result when a change touches anything behind it, even what the query did not select', async () => {
    // No slug in the selection: the result is indexed by what the upstream answers named.
    const NAMES =
      'query($lat: Float!, $lng: Float!, $date: Date!) { ballotAtPoint(lat: $lat, lng: $lng, date: $date) { candidacies { person { name } filingStatus } } }';
    const vars = { lat: 39.7311, lng: -104.9712, date: NEXT_GENERAL };
    const withSlugs = (await ask(build, FILING, vars)).body.data.ballotAtPoint.flatMap((c: any) => c.candidacies);
    const before = (await ask(build, NAMES, vars)).body.data.ballotAtPoint.flatMap((c: any) => c.candidacies);
    expect((await ask(build, NAMES, vars)).cache).toBe('hit');
    const i = withSlugs.findIndex((c: any) => c.filingStatus !== 'WITHDRAWN' && c.filingStatus !== null);
    await s.graph.writer.moveCandidacy(
      withSlugs[i].slug,
      { filingStatus: 'WITHDRAWN' },
      'provenance:demo-synthetic-registry',
    );
    await expect
      .poll(
        async () =>
          (await ask(build, NAMES, vars)).body.data.ballotAtPoint.flatMap((c: any) => c.candidacies)[i].filingStatus,
        { timeout: scaled(5_000) },
      )
      .toBe('WITHDRAWN');
    expect(before[i].filingStatus).not.toBe('WITHDRAWN');
  });
});

describe('contests and results', () => {
  it("lists a state's contests with the spec's arguments, and merges certified results from the results service", async () => {
    const res = await graphql(
      s.url,
      build,
      `{ contests(state: "CO", level: STATE, electionDate: "${PAST_GENERAL}") { slug level results { certified choices { choice votes share } } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const contests = res.body.data.contests;
    expect(contests.length).toBeGreaterThan(0);
    expect(contests.every((c: any) => c.level === 'STATE')).toBe(true);
    const withResults = contests.find((c: any) => c.results !== null);
    expect(withResults.results.choices[0]).toMatchObject({ choice: expect.any(String), votes: expect.any(Number) });
    const rest = (await get(`${s.url}/v1/results?contest=${encodeURIComponent(withResults.slug)}`, build)).body;
    expect(withResults.results.choices.map((c: any) => c.votes)).toEqual(rest.data.map((c: any) => c.votes));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { get, send, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as regions, DEMO_TODAY as today } from '../harness/demo.js';

/**
 * The Cypher layer over HTTP, on the demo graph: the plan gate, the answer and its
 * formats, caching, the entitlement and scope rules shared with every layer, budgets, and
 * every bad input refused as problem+json naming what was wrong.
 */
describe('/v1/cypher', () => {
  let stack: Stack;
  const keys: Record<string, string> = {};
  const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    send(`${stack.url}/v1/cypher`, 'POST', key, body, headers);
  const getQuery = (key: string, query: string, extra = '', headers: Record<string, string> = {}) =>
    get(`${stack.url}/v1/cypher?query=${encodeURIComponent(query)}${extra}`, key, headers);

  beforeAll(async () => {
    stack = await startStack({ demo: { regions, today } });
    keys['explore'] = await stack.key({ plan: Plan.PLAN_EXPLORE });
    keys['build'] = await stack.key({ plan: Plan.PLAN_BUILD });
    keys['contact'] = await stack.key({
      plan: Plan.PLAN_BUILD,
      entitlements: { contact: true, geography: false, states: [], tiers: [] },
    });
    keys['delaware'] = await stack.key({
      plan: Plan.PLAN_BUILD,
      entitlements: { contact: false, geography: false, states: ['de'], tiers: [] },
    });
    keys['enterprise'] = await stack.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 6_000 });
  });
  afterAll(() => stack?.stop());

  it('is refused to an Explore key as plan_required, for every method and the schema', async () => {
    for (const res of [
      await post(keys['explore']!, { query: 'MATCH (p:Party) RETURN p.name' }),
      await getQuery(keys['explore']!, 'MATCH (p:Party) RETURN p.name'),
      await get(`${stack.url}/v1/cypher/schema`, keys['explore']),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.type).toBe('plan_required');
    }
  });

  it('answers columns, rows and stats, counted against the rate limit and never cached', async () => {
    const res = await post(keys['build']!, {
      query:
        'MATCH (c:Candidacy)-[:OF_PARTY]->(p:Party) WHERE c.state = $state RETURN p.name AS party, count(*) AS n ORDER BY n DESC, party',
      parameters: { state: 'co' },
    });
    expect(res.status).toBe(200);
    expect(res.body.columns).toEqual(['party', 'n']);
    expect(res.body.rows.length).toBeGreaterThan(1);
    for (const [party, n] of res.body.rows) {
      expect(typeof party).toBe('string');
      expect(n).toBeGreaterThan(0);
    }
    expect(res.body.stats.rows_returned).toBe(res.body.rows.length);
    expect(res.body.stats.rows_examined).toBeGreaterThan(0);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Number(res.headers.get('civic-ratelimit-remaining'))).toBeGreaterThan(0);
    expect(res.headers.get('civic-version')).not.toBeNull();
  });

  it('counts what the store holds, in the caller scope', async () => {
    const all = await post(keys['build']!, {
      query: 'MATCH (c:Contest) RETURN c.state AS state, count(*) AS n ORDER BY state',
    });
    const de = await post(keys['delaware']!, {
      query: 'MATCH (c:Contest) RETURN c.state AS state, count(*) AS n ORDER BY state',
    });
    const states = (rows: [string, number][]) => rows.map(([s]) => s);
    expect(states(all.body.rows)).toEqual(['', 'co', 'de']);
    // A key scoped to Delaware sees Delaware and national contests, with the same counts.
    expect(states(de.body.rows)).toEqual(['', 'de']);
    expect(de.body.rows).toEqual(all.body.rows.filter(([s]: [string]) => s !== 'co'));
    // …and cannot reach Colorado through a relationship either.
    const through = await post(keys['delaware']!, {
      query: "MATCH (p:Party)<-[:OF_PARTY]-(c:Candidacy) WHERE c.state = 'co' RETURN count(c) AS n",
    });
    expect(through.body.rows).toEqual([[0]]);
  });

  it('serves GET answers from the response cache with an ETag, and revalidates to 304', async () => {
    const q = 'MATCH (p:Party) RETURN p.slug AS slug ORDER BY slug';
    const first = await getQuery(keys['build']!, q);
    expect(first.status).toBe(200);
    expect(first.headers.get('civic-cache')).toBe('miss');
    const again = await getQuery(keys['build']!, q);
    expect(again.headers.get('civic-cache')).toBe('hit');
    expect(again.body).toEqual(first.body);
    const etag = first.headers.get('etag')!;
    const revalidated = await getQuery(keys['build']!, q, '', { 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    const withParams = await getQuery(
      keys['build']!,
      'MATCH (p:Party {slug: $slug}) RETURN p.name',
      `&parameters=${encodeURIComponent(JSON.stringify({ slug: first.body.rows[0][0] }))}`,
    );
    expect(withParams.body.rows).toHaveLength(1);
  });

  it('answers NDJSON when asked: columns, a line per row, then stats', async () => {
    const res = await fetch(`${stack.url}/v1/cypher`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${keys['build']}`,
        'Content-Type': 'application/json',
        Accept: 'application/x-ndjson',
      },
      body: JSON.stringify({ query: 'MATCH (p:Party) RETURN p.slug AS slug ORDER BY slug' }),
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ columns: ['slug'] });
    expect(lines.at(-1).stats.rows_returned).toBe(lines.length - 2);
    expect(lines.slice(1, -1).every((l: unknown) => Array.isArray(l) && typeof l[0] === 'string')).toBe(true);
  });

  it('refuses a contact property without contact, naming it and where it is; answers it with contact', async () => {
    const query = 'MATCH (c:Candidacy) RETURN c.slug, c.campaignEmails LIMIT 3';
    const refused = await post(keys['build']!, { query });
    expect(refused.status).toBe(403);
    expect(refused.body.type).toBe('entitlement_required');
    expect(refused.body.field).toBe('campaignEmails');
    expect(refused.body.detail).toContain('line 1, column 38');
    const inPattern = await post(keys['build']!, { query: "MATCH (c:Candidacy {campaignPhones: ['x']}) RETURN c" });
    expect(inPattern.body.type).toBe('entitlement_required');
    const answered = await post(keys['contact']!, { query });
    expect(answered.status).toBe(200);
    expect(answered.body.rows).toHaveLength(3);
  });

  it('returns whole nodes with only the properties the key may see', async () => {
    const query = 'MATCH (c:Candidacy) RETURN c LIMIT 5';
    const plain = await post(keys['build']!, { query });
    const contact = await post(keys['contact']!, { query });
    for (const [node] of plain.body.rows) {
      expect(node._label).toBe('Candidacy');
      expect(node).not.toHaveProperty('campaignEmails');
      expect(node).not.toHaveProperty('campaignTeam');
    }
    for (const [node] of contact.body.rows) expect(node).toHaveProperty('campaignEmails');
  });

  it('leaves out candidacies below min_confidence, as REST does', async () => {
    const count = async (min: number) =>
      (await post(keys['build']!, { query: 'MATCH (c:Candidacy) RETURN count(c)', min_confidence: min })).body
        .rows[0][0];
    const everything = await count(0);
    const sure = await count(0.9);
    const confident = await post(keys['build']!, {
      query: 'MATCH (c:Candidacy) WHERE c.confidence >= 0.9 RETURN count(c)',
    });
    expect(sure).toBe(confident.body.rows[0][0]);
    expect(sure).toBeLessThan(everything);
  });

  it('serves the schema, shaped by the key', async () => {
    const plain = await get(`${stack.url}/v1/cypher/schema`, keys['build']);
    const contact = await get(`${stack.url}/v1/cypher/schema`, keys['contact']);
    const props = (body: any, label: string) =>
      body.labels.find((l: any) => l.label === label).properties.map((p: any) => p.name);
    expect(props(plain.body, 'Candidacy')).toContain('confidence');
    expect(props(plain.body, 'Candidacy')).not.toContain('campaignEmails');
    expect(props(contact.body, 'Candidacy')).toContain('campaignEmails');
    expect(plain.body.relationships).toContainEqual({ type: 'FOR_CONTEST', from: ['Candidacy'], to: ['Contest'] });
  });

  it('refuses what the subset does not run, naming the clause and its position', async () => {
    for (const [query, words] of [
      ['CREATE (n:Party {name: "x"}) RETURN n', 'CREATE at line 1, column 1'],
      ['MATCH (n) DETACH DELETE n', 'DETACH DELETE at line 1, column 11'],
      ['MATCH (n) SET n.name = "x" RETURN n', 'SET at line 1, column 11'],
      ['CALL db.labels()', 'CALL at line 1, column 1'],
      ['MATCH (a) RETURN a UNION MATCH (b) RETURN b', 'UNION at line 1, column 20'],
      ['MATCH (a)-[*]->(b) RETURN a', 'unbounded variable-length relationships'],
      ['MATCH p = (a)-->(b) RETURN p', 'path variables'],
    ] as const) {
      const res = await post(keys['build']!, { query });
      expect(res.status, query).toBe(400);
      expect(res.body.type, query).toBe('unsupported_cypher');
      expect(res.body.field).toBe('query');
      expect(res.body.detail, query).toContain(words);
    }
  });

  it('refuses a query past its budget as query_too_complex, naming the clause', async () => {
    const rows = await post(keys['build']!, {
      query: 'MATCH (a:Candidacy), (b:Candidacy), (p:Party) RETURN a.slug, b.slug, p.slug',
    });
    expect(rows.status).toBe(400);
    expect(rows.body.type).toBe('query_too_complex');
    expect(rows.body.detail).toMatch(/RETURN at line 1, column \d+/);
    const examined = await post(keys['build']!, { query: 'MATCH (a), (b), (c) RETURN count(*)' });
    expect(examined.body.type).toBe('query_too_complex');
    expect(examined.body.detail).toContain('MATCH at line 1, column 1');
  });

  it('refuses bad input as problem+json naming the field', async () => {
    const cases: [unknown, string][] = [
      ['not json', 'body'],
      [[1, 2], 'body'],
      [{}, 'query'],
      [{ query: '' }, 'query'],
      [{ query: 42 }, 'query'],
      [{ query: 'x'.repeat(20_000) }, 'query'],
      [{ query: 'MATCH (n) RETURN n', parameters: [1] }, 'parameters'],
      [{ query: 'MATCH (n) RETURN n', min_confidence: 2 }, 'min_confidence'],
      [{ query: 'MATCH (n) RETURN n', limit: 3 }, 'limit'],
      [{ query: 'MATCH (n RETURN n' }, 'query'],
      [{ query: 'MATCH (n:Party {slug: $slug}) RETURN n' }, 'parameters'],
      [{ query: 'MATCH (n:Party) RETURN m' }, 'query'],
    ];
    for (const [body, field] of cases) {
      const res = await post(keys['build']!, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.field, JSON.stringify(body).slice(0, 80)).toBe(field);
    }
    const badParams = await getQuery(keys['build']!, 'MATCH (n) RETURN n', '&parameters=%7Bnope');
    expect(badParams.status).toBe(400);
    expect(badParams.body.field).toBe('parameters');
    const unknownParam = await getQuery(keys['build']!, 'MATCH (n) RETURN n', '&page=2');
    expect(unknownParam.body.field).toBe('page');
    const twice = await getQuery(keys['build']!, 'MATCH (n) RETURN n', '&query=MATCH%20(m)%20RETURN%20m');
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ type: 'invalid_parameter', field: 'query' });
  });

  it('is listed as a layer at /v1/cypher', async () => {
    const res = await get(`${stack.url}/v1/meta/layers`, keys['build']);
    const cypher = res.body.data.find((l: any) => l.name === 'cypher');
    expect(cypher).toMatchObject({ api: 'beta', path: '/v1/cypher' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { scaled } from '@civicgraph/kit/testing';
import { DENVER, get, send, startStack, type Stack } from '../harness/stack.js';
import {
  CONTACT_FIELDS,
  DEMO_REGIONS as regions,
  DEMO_TODAY as today,
  NEXT_GENERAL,
  PAST_GENERAL,
} from '../harness/demo.js';
import { agentUrl, callTool, connectAgent } from '../harness/mcp.js';

/**
 * The agent layer (/v1/agent) driven by the MCP SDK's own client over real HTTP, on the demo
 * graph: the handshake, the tool list each key's entitlements shape, every tool answering
 * what REST answers the same key, the refusals (plan, key, scope, input) and the resources.
 */

const ADMIN = 'admin-token-for-agent-tests-0123456789abcdef';
const ALL_TOOLS = [
  'find_districts',
  'get_ballot',
  'search_contests',
  'get_contest',
  'get_candidacy',
  'officeholders',
  'results',
  'election_dates',
  'region_boundary',
  'cypher',
];
const GEOGRAPHY_TOOLS = ['find_districts', 'get_ballot', 'region_boundary'];

let stack: Stack;
const keys: Record<string, string> = {};
const clients: Client[] = [];
const rest = async (path: string, key = keys['build']!) => {
  const res = await get(`${stack.url}${path}`, key);
  return res.body;
};
async function agent(key: string): Promise<Client> {
  const client = await connectAgent(stack.url, key);
  clients.push(client);
  return client;
}
/** A raw JSON-RPC POST, to read the HTTP answer itself (headers, refusals). */
const post = (key: string, message: unknown) =>
  send(agentUrl(stack.url).href, 'POST', key, message, { Accept: 'application/json, text/event-stream' });
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

beforeAll(async () => {
  stack = await startStack({ demo: { regions, today }, adminToken: ADMIN });
  keys['explore'] = await stack.key({ plan: Plan.PLAN_EXPLORE });
  keys['build'] = await stack.key({ plan: Plan.PLAN_BUILD });
  keys['contact'] = await stack.key({
    plan: Plan.PLAN_ENTERPRISE,
    rateLimitPerMinute: 6_000,
    entitlements: { contact: true, geography: true, states: [], tiers: [] },
  });
  keys['nogeo'] = await stack.key({
    plan: Plan.PLAN_BUILD,
    entitlements: { contact: false, geography: false, states: [], tiers: [] },
  });
  keys['delaware'] = await stack.key({
    plan: Plan.PLAN_BUILD,
    entitlements: { contact: false, geography: true, states: ['de'], tiers: [] },
  });
}, scaled(60_000));
afterAll(async () => {
  for (const c of clients) await c.close();
  await stack?.stop();
});

describe('/v1/agent over HTTP', () => {
  it('initializes with the server name, instructions and tools and resources capabilities', async () => {
    const client = await agent(keys['build']!);
    expect(client.getServerVersion()).toMatchObject({ name: 'civicgraph' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(client.getInstructions()).toMatch(/provenance/);
  });

  it('answers behind the edge: Civic-* headers, each POST counted against the rate budget, never cached', async () => {
    const first = await post(keys['build']!, INITIALIZE);
    const second = await post(keys['build']!, INITIALIZE);
    expect(first.status).toBe(200);
    expect(first.body.result.serverInfo.name).toBe('civicgraph');
    for (const h of ['civic-version', 'civic-entitlements', 'civic-request-id', 'civic-ratelimit-limit'])
      expect(first.headers.get(h), h).not.toBeNull();
    expect(first.headers.get('civic-entitlements')).toBe('geography, jurisdictions');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(Number(second.headers.get('civic-ratelimit-remaining'))).toBe(
      Number(first.headers.get('civic-ratelimit-remaining')) - 1,
    );
  });

  it('refuses an Explore key as plan_required problem+json before any MCP handling, and the SDK client with it', async () => {
    const res = await post(keys['explore']!, INITIALIZE);
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: 'plan_required', field: 'agent' });
    expect(res.headers.get('civic-ratelimit-remaining')).not.toBeNull();
    await expect(connectAgent(stack.url, keys['explore']!)).rejects.toThrow(/403|plan/);
  });

  it('refuses a missing, unknown or revoked key as unauthenticated', async () => {
    const missing = await fetch(agentUrl(stack.url), { method: 'POST', body: JSON.stringify(INITIALIZE) });
    expect(missing.status).toBe(401);
    expect(((await post('cg_test_0000000000000000000000000000000000000000', INITIALIZE)).body as any).type).toBe(
      'unauthenticated',
    );
    const key = await stack.key({ plan: Plan.PLAN_BUILD });
    expect((await post(key, INITIALIZE)).status).toBe(200);
    const id = (await stack.auth.keys.list()).at(-1)!.keyId;
    const revoked = await fetch(`${stack.url}/admin/v1/keys/${id}/revoke`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}` },
    });
    expect(revoked.status).toBe(200);
    await expect.poll(async () => (await post(key, INITIALIZE)).status, { timeout: scaled(5_000) }).toBe(401);
    expect((await post(key, INITIALIZE)).body.type).toBe('unauthenticated');
  });

  it('answers GET and DELETE with 405: the server is stateless', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await send(agentUrl(stack.url).href, method, keys['build']!, undefined, {
        Accept: 'text/event-stream',
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe('the tool list, shaped by entitlements', () => {
  const tools = async (key: string) => (await (await agent(key)).listTools()).tools;

  it('lists every tool with a description, input and output schemas, read-only', async () => {
    const list = await tools(keys['build']!);
    expect(list.map((t) => t.name)).toEqual(ALL_TOOLS);
    for (const t of list) {
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    }
    const ballot = list.find((t) => t.name === 'get_ballot')!;
    // REST's parameters, REST's rules, advertised for the model.
    expect(ballot.inputSchema.required).toEqual(['lat', 'lng']);
    expect(ballot.inputSchema.properties!['lat']).toMatchObject({ type: 'number', minimum: -90, maximum: 90 });
    expect(ballot.inputSchema.properties!['date']).toMatchObject({ type: 'string', format: 'date' });
  });

  it('leaves out the geography tools for a key without geography', async () => {
    expect((await tools(keys['nogeo']!)).map((t) => t.name)).toEqual(
      ALL_TOOLS.filter((t) => !GEOGRAPHY_TOOLS.includes(t)),
    );
  });

  it('has contact fields in output schemas only for a key with contact', async () => {
    const fieldsOf = (list: Awaited<ReturnType<typeof tools>>, tool: string) =>
      JSON.stringify(list.find((t) => t.name === tool)!.outputSchema);
    const without = await tools(keys['build']!);
    const withContact = await tools(keys['contact']!);
    for (const tool of ['get_candidacy', 'get_contest', 'get_ballot']) {
      for (const f of CONTACT_FIELDS) {
        expect(fieldsOf(without, tool), `${tool} ${f}`).not.toContain(f);
        expect(fieldsOf(withContact, tool), `${tool} ${f}`).toContain(f);
      }
    }
    expect(fieldsOf(without, 'officeholders')).not.toContain('contact_emails');
    expect(fieldsOf(withContact, 'officeholders')).toContain('contact_emails');
  });
});

describe('every tool answers what REST answers the same key, with provenance and confidence', () => {
  let client: Client;
  let contest: any;
  let candidacy: string;
  beforeAll(async () => {
    client = await agent(keys['build']!);
    contest = (await rest(`/v1/contests?state=co&date=${NEXT_GENERAL}&level=state&limit=5`)).data[0];
    candidacy = (await rest(`/v1/contests/${contest.slug}`)).candidacies[0].slug;
  });

  it('find_districts: by point as /v1/districts_by_point, by address as /v1/districts_by_address', async () => {
    const byPoint = await callTool(client, 'find_districts', { ...DENVER, date: today });
    expect(byPoint.answer).toEqual(
      await rest(`/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${today}`),
    );
    expect(byPoint.answer.data.map((r: any) => r.slug)).toEqual(
      expect.arrayContaining(['region:co', 'region:co-denver-county']),
    );
    const byAddress = await callTool(client, 'find_districts', { address: '80202', date: today });
    expect(byAddress.answer).toEqual(await rest(`/v1/districts_by_address?address=80202&date=${today}`));
    expect(byAddress.answer.geocode.precision).toBe('zip');
  });

  it('get_ballot: the contests on the ballot with candidacies, their sources and confidence', async () => {
    const { answer } = await callTool(client, 'get_ballot', { ...DENVER, date: NEXT_GENERAL });
    expect(answer).toEqual(await rest(`/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}`));
    const candidacies = answer.contests.flatMap((c: any) => c.candidacies);
    expect(candidacies.length).toBeGreaterThan(0);
    for (const c of candidacies) {
      expect(c.confidence).toBeGreaterThan(0);
      expect(c.provenance.length).toBeGreaterThan(0);
      expect(c.provenance[0]).toMatchObject({ source: expect.any(String), method: expect.any(String) });
    }
  });

  it('search_contests, get_contest and get_candidacy', async () => {
    const list = await callTool(client, 'search_contests', { state: 'co', date: NEXT_GENERAL, level: 'state' });
    expect(list.answer).toEqual(await rest(`/v1/contests?state=co&date=${NEXT_GENERAL}&level=state`));
    expect(list.answer.data.map((c: any) => c.slug)).toContain(contest.slug);
    const page = await callTool(client, 'search_contests', { state: 'co', limit: 2 });
    expect(page.answer.data).toHaveLength(2);
    const next = await callTool(client, 'search_contests', { state: 'co', limit: 2, cursor: page.answer.next_cursor });
    expect(next.answer).toEqual(
      await rest(`/v1/contests?state=co&limit=2&cursor=${encodeURIComponent(page.answer.next_cursor)}`),
    );
    const one = await callTool(client, 'get_contest', { slug: contest.slug });
    expect(one.answer).toEqual(await rest(`/v1/contests/${contest.slug}`));
    const c = await callTool(client, 'get_candidacy', { slug: candidacy });
    expect(c.answer).toEqual(await rest(`/v1/candidacies/${candidacy}`));
    expect(c.answer.field_confidence.length).toBeGreaterThan(0);
  });

  it('officeholders, election_dates and results', async () => {
    const holders = await callTool(client, 'officeholders', { region: 'region:co', date: '2027-06-01' });
    expect(holders.answer).toEqual(await rest('/v1/officeholders?region=region:co&date=2027-06-01'));
    expect(holders.answer.data.length).toBeGreaterThan(0);
    const dates = await callTool(client, 'election_dates', { state: 'co', from: today });
    expect(dates.answer).toEqual(await rest(`/v1/election_dates?state=co&from=${today}`));
    expect(dates.answer.data.map((d: any) => d.date)).toContain(NEXT_GENERAL);
    const past = (await rest(`/v1/contests?state=co&date=${PAST_GENERAL}&level=state`)).data[0];
    const results = await callTool(client, 'results', { contest: past.slug });
    expect(results.answer).toEqual(await rest(`/v1/results?contest=${past.slug}`));
    expect(results.answer.data.length).toBeGreaterThanOrEqual(2);
    expect(results.answer.provenance.length).toBeGreaterThan(0);
  });

  it("region_boundary: a simplified GeoJSON Feature, REST's at the same tolerance", async () => {
    const { answer } = await callTool(client, 'region_boundary', { slug: 'region:co-denver-county' });
    expect(answer.type).toBe('Feature');
    expect(answer.properties.simplify_meters).toBe(500);
    expect(['Polygon', 'MultiPolygon']).toContain(answer.geometry.type);
    expect(answer.properties.vertices).toBeLessThan(answer.properties.source_vertices);
    expect(answer).toEqual(await rest('/v1/regions/region:co-denver-county/boundary?simplify=500'));
  });

  it('cypher: the rows POST /v1/cypher answers', async () => {
    const ask = {
      query: 'MATCH (c:Contest) WHERE c.state = $state RETURN c.level AS level, count(*) AS n ORDER BY level',
      parameters: { state: 'co' },
    };
    const { answer } = await callTool(client, 'cypher', ask);
    const viaRest = (await send(`${stack.url}/v1/cypher`, 'POST', keys['build']!, ask)).body;
    expect(answer.columns).toEqual(['level', 'n']);
    expect(answer.rows).toEqual(viaRest.rows);
    expect(answer.rows.length).toBeGreaterThan(1);
  });
});

describe('refusals as tool errors carrying the problem type and field', () => {
  it('names the argument of a bad value, as REST names the parameter', async () => {
    const client = await agent(keys['build']!);
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['get_ballot', { lat: 95, lng: DENVER.lng }, 'invalid_parameter', 'lat'],
      ['get_ballot', { ...DENVER, date: '2026-02-30' }, 'invalid_parameter', 'date'],
      ['get_candidacy', { slug: 'person:someone' }, 'invalid_parameter', 'slug'],
      ['search_contests', { state: 'zz' }, 'invalid_parameter', 'state'],
      ['search_contests', { state: 'co', limit: 500 }, 'invalid_parameter', 'limit'],
      ['find_districts', { ...DENVER, address: '80202' }, 'invalid_parameter', 'address'],
      ['find_districts', {}, 'invalid_parameter', 'lat'],
      ['officeholders', {}, 'invalid_parameter', 'office'],
      ['region_boundary', { slug: 'region:co', simplify: 200_000 }, 'invalid_parameter', 'simplify'],
      ['cypher', { query: 'MATCH (n) DELETE n' }, 'unsupported_cypher', 'query'],
      ['get_contest', { slug: 'contest:co-nowhere-mayor-2030-general' }, 'not_found', 'slug'],
    ];
    for (const [tool, args, type, field] of cases) {
      const { problem } = await callTool(client, tool, args);
      expect(problem, `${tool} ${JSON.stringify(args)}`).toMatchObject({
        type,
        field,
        request_id: expect.stringMatching(/^req_/),
      });
    }
  });

  it('refuses an argument of the wrong JSON type before the tool runs, naming it', async () => {
    const client = await agent(keys['build']!);
    const res: any = await client.callTool({ name: 'get_ballot', arguments: { lat: 'north', lng: 1 } });
    expect(res.isError).toBe(true);
    expect(res.content[0].text).toMatch(/\blat\b/);
  });

  it('gives a key scoped to Delaware nothing of Colorado: not_found, as REST answers 404', async () => {
    const co = (await rest(`/v1/contests?state=co&date=${NEXT_GENERAL}`)).data[0].slug;
    const client = await agent(keys['delaware']!);
    expect((await get(`${stack.url}/v1/contests/${co}`, keys['delaware'])).status).toBe(404);
    const { problem } = await callTool(client, 'get_contest', { slug: co });
    expect(problem).toMatchObject({ type: 'not_found', status: 404 });
    const listed = await callTool(client, 'search_contests', { state: 'co' });
    expect(listed).toEqual({ answer: await rest('/v1/contests?state=co', keys['delaware']) });
    const counted = await callTool(client, 'cypher', {
      query: "MATCH (c:Contest) WHERE c.state = 'co' RETURN count(c)",
    });
    expect(counted.answer.rows).toEqual([[0]]);
    const ballot = await callTool(client, 'get_ballot', { ...DENVER, date: NEXT_GENERAL });
    expect(ballot.answer.contests.every((c: any) => c.state === null || c.state === 'de')).toBe(true);
  });

  it('shows contact fields only to a key with contact, and refuses a Cypher query naming one without it', async () => {
    const contest = (await rest(`/v1/contests?state=co&date=${NEXT_GENERAL}&level=state`)).data[0].slug;
    const slug = (await rest(`/v1/contests/${contest}`)).candidacies[0].slug;
    const withContact = await callTool(await agent(keys['contact']!), 'get_candidacy', { slug });
    const without = await callTool(await agent(keys['build']!), 'get_candidacy', { slug });
    for (const f of CONTACT_FIELDS) {
      expect(withContact.answer, f).toHaveProperty(f);
      expect(without.answer, f).not.toHaveProperty(f);
    }
    const named = await callTool(await agent(keys['build']!), 'cypher', {
      query: 'MATCH (c:Candidacy {slug: $slug}) RETURN c.campaignEmails',
      parameters: { slug },
    });
    expect(named.problem).toMatchObject({ type: 'entitlement_required', field: 'campaignEmails' });
  });
});

describe('resources', () => {
  it('lists the data model, the levels, the sources, the layers and the key', async () => {
    const client = await agent(keys['build']!);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'civicgraph://schema/graph',
      'civicgraph://schema/levels',
      'civicgraph://sources',
      'civicgraph://layers',
      'civicgraph://key',
    ]);
    const read = async (uri: string, c = client) => {
      const { contents } = await c.readResource({ uri });
      expect(contents[0]!.mimeType).toBe('application/json');
      return JSON.parse((contents[0] as { text: string }).text);
    };
    expect(await read('civicgraph://schema/graph')).toEqual(await rest('/v1/cypher/schema'));
    expect((await read('civicgraph://schema/levels')).data).toContainEqual({
      level: 'congressional-district',
      graphql: 'CONGRESSIONAL_DISTRICT',
    });
    const sources = await read('civicgraph://sources');
    expect(sources.columns).toEqual(['source', 'publisher', 'url', 'licence', 'method', 'records']);
    expect(sources.rows.length).toBeGreaterThan(0);
    const layers = (await read('civicgraph://layers')).data;
    expect(layers.find((l: any) => l.name === 'agent')).toMatchObject({
      api: 'beta',
      path: '/v1/agent',
      available_to_key: true,
    });
    expect(await read('civicgraph://key', await agent(keys['delaware']!))).toMatchObject({
      plan: 'build',
      entitlements: ['geography', 'jurisdictions'],
      states: ['de'],
    });
  });

  it('offers prompts that chain the tools, the ballot briefing only with geography', async () => {
    const client = await agent(keys['build']!);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['ballot_briefing', 'candidate_profile']);
    expect((await (await agent(keys['nogeo']!)).listPrompts()).prompts.map((p) => p.name)).toEqual([
      'candidate_profile',
    ]);
    const briefing = await client.getPrompt({ name: 'ballot_briefing', arguments: { address: '80202' } });
    const text = (briefing.messages[0]!.content as { text: string }).text;
    expect(text).toContain('80202');
    expect(text).toMatch(/find_districts[\s\S]*election_dates[\s\S]*get_ballot/);
    expect(text).toMatch(/provenance/);
  });

  it('flips the agent layer to available in /v1/meta/layers', async () => {
    const agentLayer = (await rest('/v1/meta/layers')).data.find((l: any) => l.name === 'agent');
    expect(agentLayer).toMatchObject({ api: 'beta', path: '/v1/agent', available_to_key: true });
  });
});

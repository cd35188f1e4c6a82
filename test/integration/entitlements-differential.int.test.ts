import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, Plan, type CreateKeyRequest } from '@civicgraph/protos/civic/auth/v1/auth';
import { graphImporter, runImport, type EdgeDoc, type Tier } from '@civicgraph/graph';
import { DENVER, get, graphql, send, SHARED_DATA, startStack, type Stack } from '../harness/stack.js';
import {
  CONTACT_FIELDS,
  DEMO_REGIONS as REGIONS,
  DEMO_TODAY as TODAY,
  NEXT_GENERAL,
  OFFICEHOLDER_CONTACT_FIELDS,
} from '../harness/demo.js';
import { startReceiver, type Receiver } from '../harness/receiver.js';
import { ndjsonRows } from '../harness/exports.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { agentUrl, callTool, connectAgent } from '../harness/mcp.js';
import { scaled } from '@civicgraph/kit/testing';

/**
 * The differential test of the one policy: a matrix of keys (plan × contact × geography ×
 * state scope × tier scope × environment) asks the same questions through REST and GraphQL,
 * and every answer is checked against the other layer and against the store itself:
 *   - the same nodes, and the same candidacy and officeholder fields, in both layers (the
 *     officeholders are the real Open States people of Colorado and Delaware, imported
 *     over the demo);
 *   - no contact field anywhere without `contact`;
 *   - no node outside the key's states and tiers, by the store's own record of each node;
 *   - the same error type for the same refusal.
 * Webhooks join it as a layer that answers by pushing: each key subscribes, the probes change,
 * and each key must receive exactly the changes REST lets it see, shaped the same way.
 * Cypher joins it as a layer asked the same questions in its own language, compared with REST.
 * The agent (MCP) joins it as a layer asked the same questions through its tools, by the MCP
 * SDK's own client. Bulk exports join it as a layer that answers with files: each Build key's
 * monthly export and each Enterprise key's own hold exactly the candidacies REST shows it.
 */

interface Scope {
  states: string[];
  tiers: string[];
}

interface MatrixKey extends Scope {
  name: string;
  key: string;
  plan: 'explore' | 'build' | 'enterprise';
  contact: boolean;
  geography: boolean;
  environment: 'test' | 'live';
}

/** One refusal or one answer, in terms both layers can be compared in. */
type Outcome = { refused: string } | { slugs: string[] };

/** A question asked of a layer for a key; one method per question in the matrix. */
interface Layer {
  name: string;
  ballot(key: string): Promise<{ outcome: Outcome; body: unknown }>;
  contests(key: string, state: string): Promise<{ outcome: Outcome; body: unknown }>;
  candidacy(key: string, slug: string): Promise<{ outcome: Outcome; body: unknown }>;
  /** The candidacy fields that exist for the key (camelCase), or the refusal. */
  candidacyFields(key: string, slug: string): Promise<{ outcome: Outcome; fields: string[] }>;
  /** Every officeholder of a region on HOLDERS_DAY, as `office|person|start`. */
  officeholders(key: string, region: string): Promise<{ outcome: Outcome; body: unknown }>;
  /** The fields of an office's officeholder that exist for the key (camelCase), or the refusal. */
  officeholderFields(key: string, office: string): Promise<{ outcome: Outcome; fields: string[] }>;
}

/**
 * Where the two layers' candidacy shapes differ by design, for every key alike: REST adds
 * the slugs of the person and party beside their objects; GraphQL adds the candidacy's
 * display name. Anything else that differs, for any key, is a leak or a loss.
 */
const REST_ONLY = ['partySlug', 'personSlug'];
const GRAPHQL_ONLY = ['name'];
/** An officeholder in REST flattens the slugs, level and region of its person, office and party beside their names. */
const OFFICEHOLDER_REST_ONLY = ['level', 'officeSlug', 'partySlug', 'personSlug', 'region'];

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const CONTACT_CAMEL = CONTACT_FIELDS.map(camel);
const HOLDER_CONTACT_CAMEL = OFFICEHOLDER_CONTACT_FIELDS.map(camel);
/** Every contact field of every resource, in both layers' spellings: none may appear for a key without contact. */
const ALL_CONTACT = [...CONTACT_FIELDS, ...CONTACT_CAMEL, ...OFFICEHOLDER_CONTACT_FIELDS, ...HOLDER_CONTACT_CAMEL];

/** The day officeholders are asked about: the Open States copy of 2026-08-05 is current then. */
const HOLDERS_DAY = '2026-08-06';
/** Colorado's governor: a state-tier Colorado office, in every test-environment key's scope. */
const GOVERNOR = 'office:co-governor';
/** Terms the webhook question ends a day later, each with a day REST shows it on. */
const HOLDER_PROBES = [
  { office: GOVERNOR, person: 'person:ocd-be56ceea-ca7e-46b1-acdd-d4266e9d2893', end: '2027-01-13', day: HOLDERS_DAY },
  {
    office: 'office:co-denver-city-mayor',
    person: 'person:ocd-3b5c8213-a8a7-474b-903f-f5d67e75c4bc',
    end: '2027-05-05',
    day: HOLDERS_DAY,
  },
  {
    office: 'office:de-governor',
    person: 'person:ocd-7aefad2a-28f2-45e9-8d44-3eb1ee21f849',
    end: '2025-01-02',
    day: '2024-06-01',
  },
];

let s: Stack;
let receiver: Receiver;
let matrix: MatrixKey[];
/** One candidacy per (state, tier) of the demo, found with an unrestricted key. */
let probes: string[];
/** A Colorado state-tier candidacy: in every test-environment key's scope. */
let everyonesCandidacy: string;

const holderId = (office: string, person: string, start: string | null) => `${office}|${person}|${start ?? ''}`;
function refusalOf(status: number, body: any): Outcome | undefined {
  return status >= 400 ? { refused: body?.type ?? `status ${status}` } : undefined;
}

function gqlRefusal(status: number, body: any): Outcome | undefined {
  // Refused before GraphQL runs (at the edge: the key itself), the answer is problem+json.
  const type = body?.errors?.[0]?.extensions?.type ?? body?.type;
  if (status >= 400 || (body?.data == null && type !== undefined)) return { refused: type ?? `status ${status}` };
  return undefined;
}

const REST: Layer = {
  name: 'rest',
  async ballot(key) {
    const res = await get(`${s.url}/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}`, key);
    return { outcome: refusalOf(res.status, res.body) ?? { slugs: nodeSlugs(res.body.contests) }, body: res.body };
  },
  async contests(key, state) {
    const res = await get(`${s.url}/v1/contests?state=${state}&limit=200`, key);
    return { outcome: refusalOf(res.status, res.body) ?? { slugs: nodeSlugs(res.body.data) }, body: res.body };
  },
  async candidacy(key, slug) {
    const res = await get(`${s.url}/v1/candidacies/${encodeURIComponent(slug)}`, key);
    // A node out of scope does not exist for the key: REST's 404 is GraphQL's null.
    if (res.status === 404) return { outcome: { slugs: [] }, body: res.body };
    return { outcome: refusalOf(res.status, res.body) ?? { slugs: [res.body.slug] }, body: res.body };
  },
  async candidacyFields(key, slug) {
    const res = await get(`${s.url}/v1/candidacies/${encodeURIComponent(slug)}`, key);
    return {
      outcome: refusalOf(res.status, res.body) ?? { slugs: [res.body.slug] },
      fields: res.status === 200 ? Object.keys(res.body).map(camel).sort() : [],
    };
  },
  async officeholders(key, region) {
    const data: any[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await get(
        `${s.url}/v1/officeholders?region=${region}&date=${HOLDERS_DAY}&limit=200${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        key,
      );
      const refused = refusalOf(res.status, res.body);
      if (refused !== undefined) return { outcome: refused, body: res.body };
      data.push(...res.body.data);
      cursor = res.body.next_cursor;
    } while (cursor !== null);
    return {
      outcome: { slugs: data.map((o) => holderId(o.office_slug, o.person_slug, o.term_start)).sort() },
      body: { data },
    };
  },
  async officeholderFields(key, office) {
    const res = await get(`${s.url}/v1/officeholders?office=${office}&date=${HOLDERS_DAY}`, key);
    const refused = refusalOf(res.status, res.body);
    if (refused !== undefined) return { outcome: refused, fields: [] };
    const first = res.body.data.find((o: any) => o.person_slug.startsWith('person:ocd-'));
    return {
      outcome: { slugs: res.body.data.map((o: any) => holderId(o.office_slug, o.person_slug, o.term_start)).sort() },
      fields: first === undefined ? [] : Object.keys(first).map(camel).sort(),
    };
  },
};

const GRAPHQL: Layer = {
  name: 'graphql',
  async ballot(key) {
    const res = await graphql(
      s.url,
      key,
      'query($lat: Float!, $lng: Float!, $date: Date!) { ballotAtPoint(lat: $lat, lng: $lng, date: $date) { slug candidacies { slug } } }',
      { ...DENVER, date: NEXT_GENERAL },
    );
    return {
      outcome: gqlRefusal(res.status, res.body) ?? { slugs: nodeSlugs(res.body.data.ballotAtPoint) },
      body: res.body,
    };
  },
  async contests(key, state) {
    const res = await graphql(s.url, key, 'query($state: StateCode!) { contests(state: $state) { slug } }', {
      state: state.toUpperCase(),
    });
    return {
      outcome: gqlRefusal(res.status, res.body) ?? { slugs: nodeSlugs(res.body.data.contests) },
      body: res.body,
    };
  },
  async candidacy(key, slug) {
    const res = await graphql(s.url, key, 'query($slug: ID!) { candidacy(slug: $slug) { slug } }', { slug });
    const c = res.body.data?.candidacy;
    return { outcome: gqlRefusal(res.status, res.body) ?? { slugs: c == null ? [] : [c.slug] }, body: res.body };
  },
  async candidacyFields(key, slug) {
    const schema = await graphql(s.url, key, '{ __type(name: "Candidacy") { fields { name } } }');
    const refused = gqlRefusal(schema.status, schema.body);
    if (refused !== undefined) return { outcome: refused, fields: [] };
    const all: string[] = schema.body.data.__type.fields.map((f: any) => f.name);
    // Ask for every scalar-or-object field the key's schema has, so a shape the schema lists but resolvers withhold shows.
    const res = await graphql(
      s.url,
      key,
      `query($slug: ID!) { candidacy(slug: $slug) { ${all.map((f) => selectionOf(f)).join(' ')} } }`,
      { slug },
    );
    const c = res.body.data?.candidacy;
    return {
      outcome: gqlRefusal(res.status, res.body) ?? { slugs: c == null ? [] : [c.slug] },
      fields: c == null ? [] : Object.keys(c).sort(),
    };
  },
  async officeholders(key, region) {
    const res = await graphql(
      s.url,
      key,
      'query($region: ID!, $date: Date!) { officeholders(region: $region, date: $date) { office { slug } person { slug } termStart } }',
      { region, date: HOLDERS_DAY },
    );
    const refused = gqlRefusal(res.status, res.body);
    if (refused !== undefined) return { outcome: refused, body: res.body };
    return {
      outcome: {
        slugs: res.body.data.officeholders.map((o: any) => holderId(o.office.slug, o.person.slug, o.termStart)).sort(),
      },
      body: res.body,
    };
  },
  async officeholderFields(key, office) {
    const schema = await graphql(s.url, key, '{ __type(name: "Officeholder") { fields { name } } }');
    const refused = gqlRefusal(schema.status, schema.body);
    if (refused !== undefined) return { outcome: refused, fields: [] };
    const all: string[] = schema.body.data.__type.fields.map((f: any) => f.name);
    const fields = [...new Set(['office', 'person', 'termStart', ...all])].map((f) => selectionOf(f)).join(' ');
    const res = await graphql(
      s.url,
      key,
      `query($office: ID!, $date: Date!) { officeholders(office: $office, date: $date) { ${fields} } }`,
      { office, date: HOLDERS_DAY },
    );
    const list: any[] = res.body.data?.officeholders ?? [];
    const first = list.find((o) => o.person.slug.startsWith('person:ocd-'));
    return {
      outcome: gqlRefusal(res.status, res.body) ?? {
        slugs: list.map((o) => holderId(o.office.slug, o.person.slug, o.termStart)).sort(),
      },
      fields: first === undefined ? [] : Object.keys(first).sort(),
    };
  },
};

/** One MCP client per key (initialized once) with the tools it lists, or the problem type the endpoint refused the key with. */
type Agent = { client: Client; tools: Tool[] } | { refused: string };
const agents = new Map<string, Agent>();
async function agentFor(key: string): Promise<Agent> {
  let a = agents.get(key);
  if (a === undefined) {
    const probe = await send(
      agentUrl(s.url).href,
      'POST',
      key,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'matrix', version: '1' } },
      },
      { Accept: 'application/json, text/event-stream' },
    );
    if (probe.status === 200) {
      const client = await connectAgent(s.url, key);
      a = { client, tools: (await client.listTools()).tools };
    } else a = { refused: probe.body?.type ?? `status ${probe.status}` };
    agents.set(key, a);
  }
  return a;
}

/**
 * A tool's outcome for a key: its answer, the refusal of the key itself, or — for a tool the key's
 * entitlements leave out of its tool list, as GraphQL leaves the field out of its schema — the
 * refusal REST answers for the same question (`entitlement_required`).
 */
async function agentCall(
  key: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ refused: string } | { answer: any } | { problem: any }> {
  const agent = await agentFor(key);
  if ('refused' in agent) return agent;
  if (!agent.tools.some((t) => t.name === tool)) return { refused: 'entitlement_required' };
  const outcome = await callTool(agent.client, tool, args);
  return outcome.problem !== undefined ? { problem: outcome.problem } : { answer: outcome.answer };
}

const AGENT: Layer = {
  name: 'agent',
  async ballot(key) {
    const r = await agentCall(key, 'get_ballot', { ...DENVER, date: NEXT_GENERAL });
    if ('answer' in r) return { outcome: { slugs: nodeSlugs(r.answer.contests) }, body: r.answer };
    return { outcome: 'refused' in r ? r : { refused: r.problem.type }, body: r };
  },
  async contests(key, state) {
    const r = await agentCall(key, 'search_contests', { state, limit: 200 });
    if ('answer' in r) return { outcome: { slugs: nodeSlugs(r.answer.data) }, body: r.answer };
    return { outcome: 'refused' in r ? r : { refused: r.problem.type }, body: r };
  },
  async candidacy(key, slug) {
    const r = await agentCall(key, 'get_candidacy', { slug });
    if ('answer' in r) return { outcome: { slugs: [r.answer.slug] }, body: r.answer };
    // As REST's 404: a node out of scope does not exist for the key.
    if ('problem' in r && r.problem.type === 'not_found') return { outcome: { slugs: [] }, body: r };
    return { outcome: 'refused' in r ? r : { refused: r.problem.type }, body: r };
  },
  async candidacyFields(key, slug) {
    const r = await agentCall(key, 'get_candidacy', { slug });
    if ('answer' in r) return { outcome: { slugs: [r.answer.slug] }, fields: Object.keys(r.answer).map(camel).sort() };
    return { outcome: 'refused' in r ? r : { refused: r.problem.type }, fields: [] };
  },
  async officeholders(key, region) {
    const data: any[] = [];
    let cursor: string | null = null;
    do {
      const r = await agentCall(key, 'officeholders', {
        region,
        date: HOLDERS_DAY,
        limit: 200,
        ...(cursor === null ? {} : { cursor }),
      });
      if (!('answer' in r)) return { outcome: 'refused' in r ? r : { refused: r.problem.type }, body: r };
      data.push(...r.answer.data);
      cursor = r.answer.next_cursor;
    } while (cursor !== null);
    return {
      outcome: { slugs: data.map((o) => holderId(o.office_slug, o.person_slug, o.term_start)).sort() },
      body: { data },
    };
  },
  async officeholderFields(key, office) {
    const r = await agentCall(key, 'officeholders', { office, date: HOLDERS_DAY });
    if (!('answer' in r)) return { outcome: 'refused' in r ? r : { refused: r.problem.type }, fields: [] };
    const first = r.answer.data.find((o: any) => o.person_slug.startsWith('person:ocd-'));
    return {
      outcome: { slugs: r.answer.data.map((o: any) => holderId(o.office_slug, o.person_slug, o.term_start)).sort() },
      fields: first === undefined ? [] : Object.keys(first).map(camel).sort(),
    };
  },
};

/** A selection for a Candidacy or Officeholder field: object fields need a sub-selection. */
function selectionOf(field: string): string {
  const objects: Record<string, string> = {
    person: 'person { slug }',
    party: 'party { slug }',
    contest: 'contest { slug }',
    positions: 'positions { slug }',
    provenance: 'provenance { slug }',
    fieldConfidence: 'fieldConfidence { field confidence }',
    campaignTeam: 'campaignTeam { role }',
    office: 'office { slug }',
    contactOffices: 'contactOffices { kind }',
    contactLinks: 'contactLinks { url }',
  };
  return objects[field] ?? field;
}

/** Contest and candidacy slugs in a list of contests (each with its candidacies), sorted. */
function nodeSlugs(contests: any[]): string[] {
  const out: string[] = [];
  for (const c of contests) {
    out.push(c.slug);
    for (const x of c.candidacies ?? []) out.push(x.slug);
  }
  return out.sort();
}

/** Every object key anywhere in a JSON value. */
function keysIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysIn(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysIn(v, out);
    }
  }
  return out;
}

/** Every `contest:`, `candidacy:` or `office:` slug anywhere in a JSON value. */
function scopedSlugsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string' && /^(contest|candidacy|office):/.test(value)) out.add(value);
  else if (Array.isArray(value)) for (const v of value) scopedSlugsIn(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) scopedSlugsIn(v, out);
  return out;
}

/** In scope by the store's own record of the node, checked here without the policy module. */
async function inScope(slug: string, scope: Scope): Promise<boolean> {
  const node = (await s.graph.store.getNode(slug)) as { state: string; tier: string } | undefined;
  if (node === undefined) return false;
  const stateOk = scope.states.length === 0 || node.state === '' || scope.states.includes(node.state);
  const tierOk = scope.tiers.length === 0 || node.tier === '' || scope.tiers.includes(node.tier);
  return stateOk && tierOk;
}

async function makeMatrix(): Promise<MatrixKey[]> {
  const keys: MatrixKey[] = [];
  const plans: [MatrixKey['plan'], Pick<CreateKeyRequest, 'plan' | 'rateLimitPerMinute'>][] = [
    ['explore', { plan: Plan.PLAN_EXPLORE }],
    ['build', { plan: Plan.PLAN_BUILD }],
    ['enterprise', { plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 10_000 }],
  ];
  for (const [planName, plan] of plans) {
    for (const contact of planName === 'explore' ? [false] : [false, true]) {
      for (const geography of [true, false]) {
        for (const states of [[], ['co']]) {
          for (const tiers of [[], ['federal', 'state']]) {
            for (const environment of ['test', 'live'] as const) {
              const issued = await s.auth.keys.create({
                ...plan,
                label: 'matrix',
                pinnedVersion: '',
                environment: environment === 'live' ? Environment.ENVIRONMENT_LIVE : Environment.ENVIRONMENT_TEST,
                entitlements: { contact, geography, states, tiers },
              });
              const name = `${planName}${contact ? '+contact' : ''}${geography ? '' : ' -geography'} states=${states.join(',') || '*'} tiers=${tiers.join(',') || '*'} ${environment}`;
              keys.push({ name, key: issued.key, plan: planName, contact, geography, states, tiers, environment });
            }
          }
        }
      }
    }
  }
  return keys;
}

beforeAll(async () => {
  receiver = await startReceiver();
  s = await startStack({ demo: { regions: REGIONS, today: TODAY }, webhooks: true });
  // The real officeholders of both demo states, through the CLI's importer, over the demo.
  const people = await graphImporter(
    'openstates-people',
    join(SHARED_DATA, 'officeholders/openstates-people'),
    s.graph.store,
    { retrievedAt: '2026-08-05', places: join(SHARED_DATA, 'ocd/country-us') },
  );
  expect((await runImport(people, s.graph.writer)).createdRows).toBe(181);
  await s.graph.drainOutbox();
  matrix = await makeMatrix();
  const everything = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 10_000 });
  const seen = new Map<string, string>();
  for (const state of ['co', 'de']) {
    for (const c of (await get(`${s.url}/v1/contests?state=${state}&limit=200`, everything)).body.data) {
      const node = (await s.graph.store.getNode(c.slug)) as { state: string; tier: string };
      // Not withdrawn yet: the webhook question withdraws each probe, which must be a change.
      const first = (
        await get(`${s.url}/v1/candidacies?contest=${encodeURIComponent(c.slug)}&limit=20`, everything)
      ).body.data.find((x: any) => x.filing_status !== 'WITHDRAWN')?.slug;
      if (first !== undefined && !seen.has(`${node.state}|${node.tier}`)) seen.set(`${node.state}|${node.tier}`, first);
    }
  }
  probes = [...seen.values(), 'candidacy:does-not-exist'];
  everyonesCandidacy = seen.get('co|state') ?? seen.get('co|federal')!;
}, scaled(120_000));
afterAll(async () => {
  for (const a of agents.values()) if (!('refused' in a)) await a.client.close();
  await s?.stop();
  await receiver?.stop();
});

describe('the differential test of entitlements across layers', () => {
  it('covers every combination: 80 keys, and probes in and out of every scope', () => {
    expect(matrix).toHaveLength(80);
    // At least two states and two tiers among the probes, so scope filters have something to remove.
    expect(probes.length).toBeGreaterThanOrEqual(5);
  });

  it(
    'answers every key the same in REST and GraphQL, within its scope, without contact fields it lacks',
    async () => {
      const failures: string[] = [];
      for (const k of matrix) {
        const check = (what: string, ok: boolean, detail: unknown = '') => {
          if (!ok)
            failures.push(
              `${k.name}: ${what} ${typeof detail === 'string' ? detail : JSON.stringify(detail).slice(0, 300)}`,
            );
        };
        const questions: [string, (l: Layer) => Promise<{ outcome: Outcome; body?: unknown; fields?: string[] }>][] = [
          ['ballot', (l) => l.ballot(k.key)],
          ['contests co', (l) => l.contests(k.key, 'co')],
          ['contests de', (l) => l.contests(k.key, 'de')],
          ...probes.map((slug): [string, (l: Layer) => Promise<{ outcome: Outcome; body: unknown }>] => [
            `candidacy ${slug}`,
            (l) => l.candidacy(k.key, slug),
          ]),
          ['candidacy fields', (l) => l.candidacyFields(k.key, everyonesCandidacy)],
          ['officeholders co', (l) => l.officeholders(k.key, 'region:co')],
          ['officeholders de', (l) => l.officeholders(k.key, 'region:de')],
          ['officeholder fields', (l) => l.officeholderFields(k.key, GOVERNOR)],
        ];
        for (const [what, ask] of questions) {
          const [rest, gql] = await Promise.all([ask(REST), ask(GRAPHQL)]);
          check(`${what}: same outcome`, JSON.stringify(rest.outcome) === JSON.stringify(gql.outcome), {
            rest: rest.outcome,
            graphql: gql.outcome,
          });
          if (rest.fields !== undefined && 'slugs' in rest.outcome && rest.outcome.slugs.length > 0) {
            const holder = what === 'officeholder fields';
            const restShape = rest.fields.filter((f) => !(holder ? OFFICEHOLDER_REST_ONLY : REST_ONLY).includes(f));
            const gqlShape = gql.fields!.filter((f) => holder || !GRAPHQL_ONLY.includes(f));
            check(`${what}: same fields`, JSON.stringify(restShape) === JSON.stringify(gqlShape), {
              rest: rest.fields,
              graphql: gql.fields,
            });
            check(
              `${what}: contact fields iff contact`,
              (holder ? HOLDER_CONTACT_CAMEL : CONTACT_CAMEL).every(
                (f) => rest.fields!.includes(f) === k.contact && gql.fields!.includes(f) === k.contact,
              ),
            );
          }
          for (const [layer, answer] of [
            ['rest', rest],
            ['graphql', gql],
          ] as const) {
            const keys = keysIn(answer.body);
            if (!k.contact) check(`${what} (${layer}): no contact field`, !ALL_CONTACT.some((f) => keys.has(f)));
            for (const slug of scopedSlugsIn(answer.body)) {
              if (slug === 'candidacy:does-not-exist') continue;
              check(`${what} (${layer}): in scope`, await inScope(slug, k), slug);
            }
          }
          // The refusals the policy makes, the same way in both layers.
          if (k.environment === 'live')
            check(
              `${what}: other environment refused`,
              JSON.stringify(rest.outcome) === JSON.stringify({ refused: 'unauthenticated' }),
              rest.outcome,
            );
          else if (what === 'ballot' && !k.geography)
            check(
              'ballot without geography refused',
              JSON.stringify(rest.outcome) === JSON.stringify({ refused: 'entitlement_required' }),
              rest.outcome,
            );
        }
      }
      expect(failures).toEqual([]);
    },
    scaled(240_000),
  );

  it(
    'refuses a GraphQL query naming a contact field to exactly the keys without contact, as REST leaves the field out',
    async () => {
      for (const k of matrix.filter((m) => m.environment === 'test')) {
        const res = await graphql(
          s.url,
          k.key,
          'query($slug: ID!) { candidacy(slug: $slug) { slug campaignEmails } }',
          { slug: everyonesCandidacy },
        );
        if (k.contact) expect(res.body.errors, k.name).toBeUndefined();
        else
          expect(res.body.errors?.[0]?.extensions, k.name).toMatchObject({
            type: 'entitlement_required',
            field: 'Candidacy.campaignEmails',
          });
        for (const field of HOLDER_CONTACT_CAMEL) {
          const sub =
            field === 'contactEmails' ? field : `${field} { ${field === 'contactLinks' ? 'url' : 'address'} }`;
          const holders = await graphql(
            s.url,
            k.key,
            `query($office: ID!, $date: Date!) { officeholders(office: $office, date: $date) { person { slug } ${sub} } }`,
            { office: GOVERNOR, date: HOLDERS_DAY },
          );
          if (k.contact) {
            expect(holders.body.errors, `${k.name} ${field}`).toBeUndefined();
            expect(JSON.stringify(holders.body.data), `${k.name} ${field}`).toMatch(
              /Governorpolis@state\.co\.us|200 E\. Colfax|colorado\.gov\/governor/,
            );
          } else {
            // Refused as the candidacy's contact field is, the same answer in every respect.
            expect(holders.status, `${k.name} ${field}`).toBe(res.status);
            expect(holders.body.errors?.[0]?.extensions, `${k.name} ${field}`).toMatchObject({
              type: 'entitlement_required',
              field: `Officeholder.${field}`,
            });
          }
        }
      }
    },
    scaled(120_000),
  );

  it(
    'answers every key in Cypher as REST answers it: the same nodes, in scope, contact properties iff contact, refusing the same keys',
    async () => {
      const failures: string[] = [];
      const cypher = async (key: string, query: string, parameters: Record<string, unknown> = {}) => {
        const res = await send(`${s.url}/v1/cypher`, 'POST', key, { query, parameters });
        return { status: res.status, body: res.body, refused: refusalOf(res.status, res.body) };
      };
      for (const k of matrix) {
        const check = (what: string, ok: boolean, detail: unknown = '') => {
          if (!ok) failures.push(`${k.name}: cypher: ${what} ${JSON.stringify(detail).slice(0, 300)}`);
        };
        const expectedRefusal =
          k.environment === 'live' ? 'unauthenticated' : k.plan === 'explore' ? 'plan_required' : undefined;
        const questions: [string, () => Promise<Outcome>, string, Record<string, unknown>][] = [
          ...(['co', 'de'] as const).map((state): [string, () => Promise<Outcome>, string, Record<string, unknown>] => [
            `contests ${state}`,
            async () => (await REST.contests(k.key, state)).outcome,
            'MATCH (c:Contest) WHERE c.state = $state RETURN c.slug',
            { state },
          ]),
          ...probes.map((slug): [string, () => Promise<Outcome>, string, Record<string, unknown>] => [
            `candidacy ${slug}`,
            async () => (await REST.candidacy(k.key, slug)).outcome,
            'MATCH (c:Candidacy {slug: $slug}) RETURN c',
            { slug },
          ]),
        ];
        for (const [what, restOutcome, query, parameters] of questions) {
          const answer = await cypher(k.key, query, parameters);
          if (expectedRefusal !== undefined) {
            const refused =
              answer.refused !== undefined && 'refused' in answer.refused ? answer.refused.refused : undefined;
            check(`${what}: refused`, refused === expectedRefusal, answer.refused ?? answer.status);
            continue;
          }
          if (answer.refused !== undefined) {
            check(`${what}: answered`, false, answer.body);
            continue;
          }
          const rows: unknown[][] = answer.body.rows;
          const slugs = rows.map(([v]) => (typeof v === 'string' ? v : (v as { slug: string }).slug)).sort();
          const rest = await restOutcome();
          check(`${what}: the nodes REST shows`, JSON.stringify({ slugs }) === JSON.stringify(rest), {
            cypher: slugs,
            rest,
          });
          const keys = keysIn(answer.body);
          check(
            `${what}: contact properties iff contact`,
            ALL_CONTACT.some((f) => keys.has(f)) === (k.contact && slugs.some((x) => x.startsWith('candidacy:'))),
            [...keys],
          );
          for (const slug of scopedSlugsIn(answer.body)) check(`${what}: in scope`, await inScope(slug, k), slug);
        }
        // Naming a contact property is refused to exactly the keys without contact, as GraphQL refuses the field.
        if (expectedRefusal === undefined) {
          const named = await cypher(k.key, 'MATCH (c:Candidacy {slug: $slug}) RETURN c.campaignEmails', {
            slug: everyonesCandidacy,
          });
          if (k.contact) check('contact property answered', named.status === 200, named.body);
          else
            check(
              'contact property refused',
              named.body?.type === 'entitlement_required' && named.body?.field === 'campaignEmails',
              named.body,
            );
        }
      }
      expect(failures).toEqual([]);
    },
    scaled(240_000),
  );

  it(
    'answers every key through the agent tools as REST answers it: the same nodes and fields, in scope, contact iff contact, refusing the same keys',
    async () => {
      const failures: string[] = [];
      for (const k of matrix) {
        const check = (what: string, ok: boolean, detail: unknown = '') => {
          if (!ok) failures.push(`${k.name}: agent: ${what} ${JSON.stringify(detail).slice(0, 300)}`);
        };
        const questions: [string, (l: Layer) => Promise<{ outcome: Outcome; body?: unknown; fields?: string[] }>][] = [
          ['ballot', (l) => l.ballot(k.key)],
          ['contests co', (l) => l.contests(k.key, 'co')],
          ['contests de', (l) => l.contests(k.key, 'de')],
          ...probes.map((slug): [string, (l: Layer) => Promise<{ outcome: Outcome; body: unknown }>] => [
            `candidacy ${slug}`,
            (l) => l.candidacy(k.key, slug),
          ]),
          ['candidacy fields', (l) => l.candidacyFields(k.key, everyonesCandidacy)],
          ['officeholders co', (l) => l.officeholders(k.key, 'region:co')],
          ['officeholders de', (l) => l.officeholders(k.key, 'region:de')],
          ['officeholder fields', (l) => l.officeholderFields(k.key, GOVERNOR)],
        ];
        const expectedRefusal =
          k.environment === 'live' ? 'unauthenticated' : k.plan === 'explore' ? 'plan_required' : undefined;
        for (const [what, ask] of questions) {
          const agent = await ask(AGENT);
          if (expectedRefusal !== undefined) {
            check(
              `${what}: refused`,
              JSON.stringify(agent.outcome) === JSON.stringify({ refused: expectedRefusal }),
              agent.outcome,
            );
            continue;
          }
          const rest = await ask(REST);
          check(`${what}: the outcome REST gives`, JSON.stringify(rest.outcome) === JSON.stringify(agent.outcome), {
            rest: rest.outcome,
            agent: agent.outcome,
          });
          // The agent answers REST's resources: the same fields, exactly.
          if (rest.fields !== undefined)
            check(`${what}: the fields REST gives`, JSON.stringify(rest.fields) === JSON.stringify(agent.fields), {
              rest: rest.fields,
              agent: agent.fields,
            });
          const keys = keysIn(agent.body);
          if (!k.contact) check(`${what}: no contact field`, !ALL_CONTACT.some((f) => keys.has(f)));
          for (const slug of scopedSlugsIn(agent.body)) {
            if (slug === 'candidacy:does-not-exist') continue;
            check(`${what}: in scope`, await inScope(slug, k), slug);
          }
        }
        // The tool list and its schemas, shaped as GraphQL's schema is: geography tools iff
        // geography, contact fields in output schemas iff contact.
        const agent = await agentFor(k.key);
        if ('refused' in agent) {
          check('key refused', agent.refused === expectedRefusal, agent);
          continue;
        }
        const tools = agent.tools;
        const names = tools.map((t) => t.name);
        for (const geo of ['find_districts', 'get_ballot', 'region_boundary'])
          check(`${geo} listed iff geography`, names.includes(geo) === k.geography, names);
        const schemas = JSON.stringify(tools.map((t) => t.outputSchema));
        check(
          'contact fields in output schemas iff contact',
          [...CONTACT_FIELDS, ...OFFICEHOLDER_CONTACT_FIELDS].every((f) => schemas.includes(`"${f}"`) === k.contact),
        );
      }
      expect(failures).toEqual([]);
    },
    scaled(240_000),
  );

  /** A key's endpoint, subscribed to candidacy.updated and officeholder.changed at its own path of the receiver. */
  interface Subscribed {
    k: MatrixKey;
    id: string;
    secret: string;
    path: string;
  }

  it(
    "pushes to each key's webhook exactly the changes REST shows it, without contact fields it lacks, refusing the same keys",
    async () => {
      const failures: string[] = [];
      const subscribed: Subscribed[] = [];
      for (const [i, k] of matrix.entries()) {
        const path = `/k${i}`;
        const res = await send(`${s.url}/v1/webhooks`, 'POST', k.key, {
          url: `${receiver.url}${path}`,
          events: ['candidacy.updated', 'officeholder.changed'],
        });
        const expected =
          k.environment === 'live' ? 'unauthenticated' : k.plan === 'explore' ? 'plan_required' : undefined;
        if (expected !== undefined) {
          if (res.body?.type !== expected)
            failures.push(`${k.name}: subscribing answered ${res.status} ${res.body?.type}, not ${expected}`);
        } else if (res.status !== 201)
          failures.push(`${k.name}: subscribing answered ${res.status} ${JSON.stringify(res.body)}`);
        else subscribed.push({ k, id: res.body.id, secret: res.body.secret, path });
      }
      expect(failures).toEqual([]);
      expect(subscribed).toHaveLength(32);

      // Every probe withdrawn, Colorado's state-tier one last: it is in every test key's scope, so its
      // arrival everywhere means every earlier change has been dispatched. Before it, a change to its
      // contact fields alone, which only keys with contact may hear of.
      const real = probes.filter((p) => p !== 'candidacy:does-not-exist');
      const order = [...real.filter((p) => p !== everyonesCandidacy), everyonesCandidacy];
      const node = (await s.graph.store.getNode(everyonesCandidacy)) as unknown as {
        state: string;
        tier: Tier;
        data: { fields: Record<string, { claims: { provenance: string }[] }> };
      };
      // From the source that already supports its emails, so nothing but the emails changes.
      const emailSource = node.data.fields['campaignEmails']!.claims[0]!.provenance;
      // Three terms end a day later than they did: Colorado's governor (state tier), Denver's mayor
      // (municipal) and Delaware's governor; before the candidacies, so the last arrival covers them.
      for (const t of HOLDER_PROBES) {
        const term = (await s.graph.store.edges(t.person, 'out', 'HOLDS')).find((e) => e.to === t.office)!;
        await s.graph.writer.apply({
          nodes: [],
          edges: [{ ...term, data: { ...term.data, end: t.end } } satisfies EdgeDoc],
        });
      }
      for (const slug of order) {
        if (slug === everyonesCandidacy) {
          await s.graph.writer.apply({
            nodes: [
              {
                kind: 'candidacy',
                slug,
                state: node.state,
                tier: node.tier,
                claims: { campaignEmails: ['press@matrix.example.org'] },
                provenance: emailSource,
              },
            ],
            edges: [],
          });
        }
        await s.graph.writer.moveCandidacy(slug, { filingStatus: 'WITHDRAWN' }, 'provenance:demo-synthetic-registry');
      }
      await s.graph.drainOutbox();

      const payloads = (e: Subscribed) => receiver.verified(e.secret, e.path);
      const withdrawn = (e: Subscribed) =>
        payloads(e).some(
          (p) => p.data.object.slug === everyonesCandidacy && p.data.changed_fields.includes('filingStatus'),
        );
      await expect
        .poll(() => subscribed.filter((e) => !withdrawn(e)).map((e) => e.k.name), {
          timeout: scaled(20_000),
          interval: 50,
        })
        .toEqual([]);
      // Every delivery the dispatcher made is in the log before its event is acknowledged: wait for them all to land.
      const settled = async (e: Subscribed) => {
        const log = (await send(`${s.url}/v1/webhooks/${e.id}/deliveries?limit=100`, 'GET', e.k.key)).body.data as {
          status: string;
        }[];
        return log.every((d) => d.status === 'succeeded') && log.length === payloads(e).length;
      };
      await expect
        .poll(async () => (await Promise.all(subscribed.map(settled))).every(Boolean), {
          timeout: scaled(20_000),
          interval: 100,
        })
        .toBe(true);

      for (const e of subscribed) {
        const { k } = e;
        const check = (what: string, ok: boolean, detail: unknown = '') => {
          if (!ok) failures.push(`${k.name}: webhooks: ${what} ${JSON.stringify(detail).slice(0, 300)}`);
        };
        const visible: string[] = [];
        for (const slug of real)
          if ((await get(`${s.url}/v1/candidacies/${encodeURIComponent(slug)}`, k.key)).status === 200)
            visible.push(slug);
        const expected = [...visible, ...(k.contact ? [everyonesCandidacy] : [])].sort();
        const got = payloads(e);
        const candidacies = got.filter((p) => p.type !== 'officeholder.changed');
        // Only the ends moved here: the import's own term events were dispatched before any endpoint existed.
        const holders = got.filter((p) => p.type === 'officeholder.changed' && p.data.changed_fields.join() === 'end');
        check(
          'the changes REST shows the key, once each',
          JSON.stringify(candidacies.map((p) => p.data.object.slug).sort()) === JSON.stringify(expected),
          { got: candidacies.map((p) => p.data.object.slug), expected },
        );
        const holdersShown: string[] = [];
        for (const t of HOLDER_PROBES) {
          const listed =
            (await get(`${s.url}/v1/officeholders?office=${t.office}&date=${t.day}`, k.key)).body?.data ?? [];
          if (listed.some((o: any) => o.person_slug === t.person)) holdersShown.push(`${t.office}|${t.person}`);
        }
        check(
          'the officeholder changes REST shows the key, once each',
          JSON.stringify(holders.map((p) => p.data.slugs.join('|')).sort()) === JSON.stringify(holdersShown.sort()),
          { got: holders.map((p) => p.data.slugs), expected: holdersShown },
        );
        for (const p of got) {
          const keys = keysIn(p);
          if (!k.contact)
            check(
              'no contact field',
              !ALL_CONTACT.some((f) => keys.has(f) || p.data.changed_fields.includes(f)),
              p.data.changed_fields,
            );
          else
            check(
              'contact fields present',
              keys.has(p.type === 'officeholder.changed' ? 'contactOffices' : 'campaignEmails'),
              p.data.slugs,
            );
          for (const slug of scopedSlugsIn(p)) check('in scope', await inScope(slug, k), slug);
        }
      }
      expect(failures).toEqual([]);
    },
    scaled(120_000),
  );

  it(
    'exports to each key exactly the candidacies REST shows it, in scope, without contact fields it lacks, refusing the same keys',
    async () => {
      const failures: string[] = [];
      const jobs: { k: MatrixKey; id: string }[] = [];
      for (const k of matrix) {
        const fail = (what: string, detail: unknown = '') =>
          failures.push(`${k.name}: exports: ${what} ${JSON.stringify(detail).slice(0, 300)}`);
        const listed = await get(`${s.url}/v1/exports`, k.key);
        const created = await send(`${s.url}/v1/exports`, 'POST', k.key, {
          kinds: ['candidacy', 'person', 'office'],
          formats: ['ndjson'],
          edges: false,
        });
        const refusal =
          k.environment === 'live' ? 'unauthenticated' : k.plan === 'explore' ? 'plan_required' : undefined;
        if (refusal !== undefined) {
          if (listed.body?.type !== refusal) fail('listing not refused', listed.body);
          if (created.body?.type !== refusal) fail('creating not refused', created.body);
          continue;
        }
        if (k.plan === 'build') {
          // Build: the monthly export of its shape, whole; an on-demand one is Enterprise's.
          if (created.body?.type !== 'plan_required') fail('on demand not refused', created.body);
          const monthly = listed.body.data.filter((j: any) => j.cadence === 'monthly');
          if (monthly.length !== 1) fail('not one monthly export', listed.body);
          else jobs.push({ k, id: monthly[0].id });
        } else if (created.status !== 202) fail('on demand not started', created.body);
        else jobs.push({ k, id: created.body.id });
      }
      for (const { k, id } of jobs) {
        const fail = (what: string, detail: unknown = '') =>
          failures.push(`${k.name}: exports: ${what} ${JSON.stringify(detail).slice(0, 300)}`);
        let job: any;
        await expect
          .poll(async () => (job = (await get(`${s.url}/v1/exports/${id}`, k.key)).body).status, {
            timeout: scaled(60_000),
            interval: 100,
          })
          .toBe('succeeded');
        const rows = async (table: string) => {
          const res = await fetch(`${s.url}/v1/exports/${id}/files/${table}.ndjson.gz`, {
            headers: { Authorization: `Bearer ${k.key}` },
          });
          return ndjsonRows<any>(new Uint8Array(await res.arrayBuffer()));
        };
        const candidacies = await rows('candidacy');
        const people = await rows('person');
        const exported = new Set(candidacies.map((r) => r.slug));
        for (const probe of probes) {
          const rest = await REST.candidacy(k.key, probe);
          const shown = 'slugs' in rest.outcome && rest.outcome.slugs.length > 0;
          if (shown !== exported.has(probe)) fail(`${probe}: exported ${exported.has(probe)}, REST shows ${shown}`);
        }
        if (job.manifest.policy.contact !== k.contact) fail('manifest policy', job.manifest.policy);
        const keys = keysIn([...candidacies, ...people]);
        if (!k.contact && ALL_CONTACT.some((f) => keys.has(f))) fail('a contact field without contact');
        if (k.contact && !['campaignEmails', 'contactEmails'].every((f) => keys.has(f))) fail('contact fields lost');
        for (const row of [...candidacies, ...people]) {
          const stateOk = k.states.length === 0 || row.state === '' || k.states.includes(row.state);
          const tierOk = k.tiers.length === 0 || row.tier === '' || k.tiers.includes(row.tier);
          if (!(stateOk && tierOk)) fail('out of scope', row.slug);
          if (row.slug.startsWith('candidacy:') && !(await inScope(row.slug, k)))
            fail('out of scope (store)', row.slug);
        }
      }
      expect(jobs.length).toBe(32);
      expect(failures).toEqual([]);
    },
    scaled(300_000),
  );
});

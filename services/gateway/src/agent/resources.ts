import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  asCivicError,
  enabledEntitlements,
  graphqlLevel,
  layerAllowed,
  LEVELS,
  queryBudget,
  restLevel,
} from '@civicgraph/kit';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { toProblem } from '../http/problem.js';
import { answerView } from '../rest/cypher/routes.js';
import { LAYER_STATUS_MEANINGS, LAYERS } from '../rest/meta-layers.js';
import type { AgentCall } from './tool.js';

/**
 * What an agent can read before it asks: the graph's data model, the region levels, the
 * sources behind the data, the query layers, and what this key may see. Each is what
 * another layer serves (/v1/cypher/schema, /v1/meta/layers, the graph's provenance
 * records through the Cypher path), shaped by the same key.
 */
interface AgentResource {
  name: string;
  uri: string;
  title: string;
  description: string;
  read(call: AgentCall): Promise<unknown>;
}

/** The sources the key's graph holds: one row per source, with how many provenance records cite it. */
const SOURCES_QUERY =
  'MATCH (p:Provenance) RETURN p.source AS source, p.publisher AS publisher, p.url AS url, p.licence AS licence, p.method AS method, count(*) AS records ORDER BY source, url';

export const RESOURCES: readonly AgentResource[] = [
  {
    name: 'graph-model',
    uri: 'civicgraph://schema/graph',
    title: 'The election graph: node kinds, properties, relationship types',
    description:
      "Labels (node kinds: Region, Election, Contest, Office, Candidacy, Person, Party, Position, Provenance, Result) with their properties and types, and relationship types with the labels they join, as this key may query them (contact properties only with the contact entitlement). Slugs are `kind:key`, e.g. `contest:co-cd-1-us-representative-2026-general`. What the cypher tool's queries name.",
    read: async (call) => call.upstreams.graph.cypherSchema(call.principal),
  },
  {
    name: 'levels',
    uri: 'civicgraph://schema/levels',
    title: 'Region levels',
    description:
      "Every region level, as tools and REST name it (`congressional-district`) and as GraphQL does (`CONGRESSIONAL_DISTRICT`). A contest's or an office's level is the level of the region it serves: a US Senate contest is `state`, a US House contest `congressional-district`.",
    read: async () => ({
      data: LEVELS.map((l) => ({ level: restLevel(l), graphql: graphqlLevel(l) })),
    }),
  },
  {
    name: 'sources',
    uri: 'civicgraph://sources',
    title: 'Sources behind the data',
    description:
      'Every source the graph draws from (as this key may see it): its name, publisher, URL, licence and method (official-filing, import, scrape, manual; synthetic marks demo data), and how many provenance records cite it. Candidacy answers cite these through their `provenance`.',
    read: async (call) =>
      answerView(
        await call.upstreams.graph.cypher(call.principal, { query: SOURCES_QUERY, parameters: {}, minConfidence: 0 }),
      ),
  },
  {
    name: 'layers',
    uri: 'civicgraph://layers',
    title: 'Query layers',
    description:
      "civicgraph's query layers (REST, GraphQL, Cypher, this agent endpoint, webhooks, bulk export), where each is served, its status, and whether this key's plan includes it.",
    read: async (call) => ({
      data: LAYERS.map((layer) => ({ ...layer, available_to_key: layerAllowed(call.principal, layer.name) })),
      statuses: LAYER_STATUS_MEANINGS,
    }),
  },
  {
    name: 'key',
    uri: 'civicgraph://key',
    title: 'What this key may see',
    description:
      "The calling key's plan, entitlements (contact, geography), the states and jurisdiction tiers it is scoped to (empty: all), its rate limit and the API version it answers in. Nodes outside its scope do not exist for it.",
    read: async (call) => {
      const p = call.principal;
      return {
        plan: (Plan[p.plan] ?? 'PLAN_UNSPECIFIED').slice('PLAN_'.length).toLowerCase(),
        entitlements: enabledEntitlements(p),
        states: p.entitlements?.states ?? [],
        tiers: p.entitlements?.tiers ?? [],
        rate_limit_per_minute: p.rateLimitPerMinute,
        max_response_bytes: queryBudget(p).maxResponseBytes,
        version: call.version,
      };
    },
  },
];

/** Registers every resource on a server answering for `call`. */
export function registerResources(server: McpServer, call: AgentCall): void {
  for (const r of RESOURCES) {
    server.registerResource(
      r.name,
      r.uri,
      { title: r.title, description: r.description, mimeType: 'application/json' },
      async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await readAs(r, call)) }],
      }),
    );
  }
}

/** A resource's content, or a JSON-RPC error carrying the problem document REST would answer. */
async function readAs(r: AgentResource, call: AgentCall): Promise<unknown> {
  try {
    return await r.read(call);
  } catch (err) {
    const problem = toProblem(asCivicError(err), call.requestId);
    if (problem.status >= 500)
      call.upstreams.log.error({ err, requestId: call.requestId, resource: r.uri }, 'agent resource failed');
    throw new McpError(ErrorCode.InternalError, problem.detail, problem);
  }
}

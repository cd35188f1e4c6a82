import { assertJsonDepth, assertLayer, contactVisible, InvalidParameterError } from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { CypherRequest, CypherResponse, CypherSchemaResponse } from '@civicgraph/protos/civic/graph/v1/graph';
import { runCypher } from '../../cypher/execute.js';
import { cypherSchema } from '../../cypher/schema.js';
import type { GraphStore } from '../../store/graph-store.js';

/** Deepest nesting of a parameter value (the map of parameters is the first level). */
export const MAX_PARAMETER_DEPTH = 32;

/** The Cypher RPC: the layer's plan gate (defence in depth: the gateway asks first), then the query. */
export async function cypher(store: GraphStore, principal: Principal, req: CypherRequest): Promise<CypherResponse> {
  assertLayer(principal, 'cypher');
  if (req.query.trim() === '') throw new InvalidParameterError('query', 'Send a Cypher query.');
  if (!(req.minConfidence >= 0 && req.minConfidence <= 1))
    throw new InvalidParameterError('min_confidence', 'min_confidence must be between 0 and 1.');
  assertJsonDepth(req.parameters ?? {}, MAX_PARAMETER_DEPTH, 'parameters');
  const answer = await runCypher(store, principal, {
    query: req.query,
    parameters: req.parameters ?? {},
    minConfidence: req.minConfidence,
  });
  return { columns: answer.columns, rows: answer.rows, stats: answer.stats };
}

/** The CypherSchema RPC: the schema as this caller may query it (contact properties only with `contact`). */
export function cypherSchemaFor(principal: Principal): CypherSchemaResponse {
  assertLayer(principal, 'cypher');
  const contact = contactVisible(principal);
  const schema = cypherSchema();
  return {
    labels: schema.labels.map((l) => ({ ...l, properties: l.properties.filter((p) => contact || !p.contact) })),
    relationships: schema.relationships,
  };
}

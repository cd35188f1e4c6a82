import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { contactVisible, hasEntitlement } from '@civicgraph/kit';
import { assertWithinCeiling } from '../http/respond.js';
import { TOOLS } from './catalogue.js';
import { toolError } from './errors.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import type { AgentCall, AgentTool, ToolArgs } from './tool.js';

/** The server's name and version in `initialize`. */
export const AGENT_SERVER_INFO = { name: 'civicgraph', title: 'civicgraph election data', version: '0.1.0' };

/** What `initialize` tells the model about the whole server. */
const INSTRUCTIONS = [
  'civicgraph holds US election data as a graph: regions (with real district boundaries), elections, contests, offices, candidacies, persons, parties, positions, results, and the provenance of every fact.',
  'Typical path: find_districts or get_ballot for a place; election_dates for when; search_contests, get_contest and get_candidacy for who is running; officeholders for who serves; results for who won; cypher for anything else (read civicgraph://schema/graph first).',
  'Things are named by slugs (`kind:key`, e.g. `region:co-cd-1`); pass the slugs an answer gave you to the next tool.',
  'Candidacies carry provenance (sources) and confidence (0 to 1): cite the sources and state the confidence when you answer.',
  'A failed call answers a JSON problem document: `type` says what went wrong (invalid_parameter, not_found, entitlement_required, …) and `field` which argument to change.',
  'What this key may see (states, tiers, entitlements) is at civicgraph://key; things outside it do not exist for it.',
].join('\n');

/** Whether a tool exists for the principal: a tool needing an entitlement is absent without it, as GraphQL's fields are. */
export function toolVisible(tool: AgentTool, p: Principal): boolean {
  return tool.needs === undefined || hasEntitlement(p, tool.needs);
}

/**
 * The MCP server for one HTTP request (stateless: nothing outlives the request), holding the
 * tools, resources and prompts of the caller's entitlements, each answering as that caller.
 */
export function agentServer(call: AgentCall): McpServer {
  const server = new McpServer(AGENT_SERVER_INFO, { instructions: INSTRUCTIONS });
  const contact = contactVisible(call.principal);
  for (const tool of TOOLS) {
    if (!toolVisible(tool, call.principal)) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output(contact),
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      (args: ToolArgs) => runTool(tool, args, call),
    );
  }
  registerResources(server, call);
  registerPrompts(server, call.principal);
  return server;
}

/** A tool's answer as structured content and its JSON text copy, or the problem as a tool error. */
async function runTool(tool: AgentTool, args: ToolArgs, call: AgentCall): Promise<CallToolResult> {
  try {
    const answer = await tool.run(args, call);
    const text = JSON.stringify(answer);
    assertWithinCeiling(call.principal, text, {
      field: 'limit' in tool.input ? 'limit' : tool.name,
      hint: 'Ask for less: narrow the question, or a smaller limit.',
    });
    return { structuredContent: answer, content: [{ type: 'text', text }] };
  } catch (err) {
    return toolError(err, call.requestId, call.upstreams.log, tool.name);
  }
}

import express, { type Express, type Request, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RateLimiter } from '@civicgraph/kit';
import { contextOf, principalOf } from '../http/request-context.js';
import { count } from '../http/respond.js';
import { agentServer } from './server.js';
import type { AgentUpstreams } from './tool.js';

/** Largest POST body: one JSON-RPC message (a Cypher query with its parameters is the largest). */
const BODY_LIMIT = '256kb';

const AGENT_PATH = '/v1/agent';

export interface AgentDeps extends AgentUpstreams {
  limiter: RateLimiter;
}

/**
 * The agent layer (Build and Enterprise; the plan gate in front answers Explore before any
 * MCP handling): the Model Context Protocol over Streamable HTTP, on the official SDK.
 *
 *   POST /v1/agent   one JSON-RPC message (initialize, tools/list, tools/call, resources/…)
 *                    → its JSON-RPC answer as `application/json`
 *   GET, DELETE      405: the server is stateless (no session, no server-initiated stream)
 *
 * Each POST is one request against the key's rate budget, behind the same edge as every
 * layer (key, version, Civic-* headers); a refusal there is problem+json, not JSON-RPC.
 * Stateless is enough: every tool call is a self-contained read, and it lets any gateway
 * replica answer any request with no session store.
 */
export function agentRoutes(app: Express, deps: AgentDeps): void {
  const json = express.json({ limit: BODY_LIMIT, type: () => true });
  app.post(AGENT_PATH, json, (req: Request, res: Response) => handle(req, res, deps));
  app.all(AGENT_PATH, async (req: Request, res: Response) => {
    await count(res, deps.limiter);
    res.setHeader('Allow', 'POST');
    res.status(405).json({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `Method not allowed: ${req.method}. This server is stateless; POST each message.`,
      },
      id: null,
    });
  });
}

async function handle(req: Request, res: Response, deps: AgentDeps): Promise<void> {
  await count(res, deps.limiter);
  res.setHeader('Cache-Control', 'no-store');
  const ctx = contextOf(res);
  const server = agentServer({
    principal: principalOf(res),
    version: ctx.version ?? deps.versions.latest,
    requestId: ctx.requestId,
    upstreams: deps,
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The agent endpoint of a stack. */
export const agentUrl = (base: string) => new URL(`${base}/v1/agent`);

/** The MCP SDK's own client, connected (initialized) over Streamable HTTP with a bearer key. */
export async function connectAgent(base: string, key: string): Promise<Client> {
  const client = new Client({ name: 'civicgraph-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(agentUrl(base), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** A tool call's outcome: the structured answer, or the problem document of a tool error. */
export type ToolOutcome = { answer: any; problem?: undefined } | { answer?: undefined; problem: any };

/** Calls a tool and reads its outcome; checks that the text copy of an answer is its structured content. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = res.content.find((c) => c.type === 'text')?.text ?? '';
  if (res.isError === true) return { problem: parseOr(text) };
  if (JSON.stringify(res.structuredContent) !== text)
    throw new Error(`${name}: the text copy differs from structuredContent`);
  return { answer: res.structuredContent };
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

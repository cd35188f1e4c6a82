import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asCivicError, type Logger } from '@civicgraph/kit';
import { toProblem } from '../http/problem.js';

/**
 * A failed tool call as an MCP tool error (`isError: true`), so the model sees it and can
 * correct itself: its text is the problem document REST would have answered — the same
 * stable `type`, `detail`, `field` and `request_id`. No `structuredContent`: a client
 * checks that against the tool's output schema, which describes answers, not problems.
 */
export function toolError(err: unknown, requestId: string, log: Logger, tool: string): CallToolResult {
  const civic = asCivicError(err);
  if (civic.status >= 500) log.error({ err, requestId, tool }, 'agent tool failed');
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(toProblem(civic, requestId)) }] };
}

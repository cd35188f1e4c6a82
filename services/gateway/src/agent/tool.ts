import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ApiVersion, Logger, VersionRegistry } from '@civicgraph/kit';
import type * as z from 'zod';
import type { AnsweredEndpoint, Endpoint, Upstreams } from '../rest/endpoint.js';
import { readParams, type ParamSpec, type Params } from '../rest/schema/params.js';
import { inputShape, outputSchema, resolvedComponent, type InputShape } from './schemas.js';

/** What the tools call: the same upstream clients the REST handlers call. */
export interface AgentUpstreams extends Upstreams {
  versions: VersionRegistry;
  log: Logger;
}

/** One MCP request: who asks, in which API version, under which request id. */
export interface AgentCall {
  principal: Principal;
  version: ApiVersion;
  requestId: string;
  upstreams: AgentUpstreams;
}

/** A tool's arguments as the SDK hands them over (already of the right JSON types). */
export type ToolArgs = Record<string, unknown>;

/** One tool of the agent endpoint. */
export interface AgentTool {
  name: string;
  title: string;
  /** Written for a model: what the tool answers, when to use it, what to pass. */
  description: string;
  /** An entitlement without which the tool does not exist for a key (as GraphQL's `@entitlement` fields). */
  needs?: 'geography';
  input: InputShape;
  /** The answer's schema for a key with or without `contact` (contact fields exist only with it). */
  output(contact: boolean): z.ZodType;
  run(args: ToolArgs, call: AgentCall): Promise<Record<string, unknown>>;
}

/** A REST endpoint's parameters as tool arguments: every one but `cursor` on a single-page endpoint, and those `omit` names. */
export function toolParams(endpoint: Endpoint, omit: readonly string[] = []): ParamSpec[] {
  return endpoint.params.filter(
    (p) => !omit.includes(p.name) && !(p.name === 'cursor' && p.schema.type === 'string' && p.schema.maxLength === 0),
  );
}

/**
 * Tool arguments read by REST's own parameter reader: the same defaults, the same checks,
 * the same `invalid_parameter` naming the argument. Path parameters (`slug`) are arguments too.
 */
export function restParams(specs: readonly ParamSpec[], args: ToolArgs): Params {
  const query: Record<string, unknown> = {};
  const path: Record<string, string> = {};
  for (const spec of specs) {
    const v = args[spec.name];
    if (v === undefined) continue;
    const text = typeof v === 'number' ? String(v) : v;
    if (spec.in === 'path') path[spec.name] = String(text);
    else query[spec.name] = text;
  }
  return readParams(specs, query, path);
}

/** Output schemas by contact, built once per tool (the JSON Schema conversion is not free). */
export function perContact(build: (contact: boolean) => z.ZodType): (contact: boolean) => z.ZodType {
  const built = new Map<boolean, z.ZodType>();
  return (contact) => {
    let schema = built.get(contact);
    if (schema === undefined) built.set(contact, (schema = build(contact)));
    return schema;
  };
}

/** A tool that is a REST endpoint: its parameters, its answer, its resource schema and its version shaping. */
export function restTool(o: {
  name: string;
  title: string;
  description: string;
  endpoint: AnsweredEndpoint;
  /** REST parameters left out of the tool (accepted by REST for uniformity, meaningless here). */
  omit?: readonly string[];
  needs?: 'geography';
}): AgentTool {
  const specs = toolParams(o.endpoint, o.omit);
  return {
    name: o.name,
    title: o.title,
    description: o.description,
    ...(o.needs === undefined ? {} : { needs: o.needs }),
    input: inputShape(specs),
    output: perContact((contact) => outputSchema(resolvedComponent(o.endpoint.response, contact))),
    async run(args, call) {
      const view = await o.endpoint.answer(call.upstreams)(restParams(specs, args), call.principal);
      return call.upstreams.versions.shape(call.version, o.endpoint.operationId, view) as Record<string, unknown>;
    },
  };
}

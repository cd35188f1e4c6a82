import { Kind, visit, type ArgumentNode, type OperationDefinitionNode } from 'graphql';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { BallotLookup } from '../ballot-lookup.js';
import type { Prepared } from './prepare.js';

/** An argument's value: a literal, or the variable's (coerced) value; undefined when absent. */
function argValue(args: readonly ArgumentNode[], name: string, variables: Record<string, unknown>): { value: unknown; variable?: string } | undefined {
  const arg = args.find((a) => a.name.value === name);
  if (arg === undefined) return undefined;
  const v = arg.value;
  if (v.kind === Kind.VARIABLE) return { value: variables[v.name.value], variable: v.name.value };
  if (v.kind === Kind.FLOAT || v.kind === Kind.INT) return { value: Number(v.value) };
  if (v.kind === Kind.STRING) return { value: v.value };
  return { value: undefined };
}

/** How many times each variable is used in the operation. */
function variableUses(op: OperationDefinitionNode): Map<string, number> {
  const uses = new Map<string, number>();
  visit(op, { Variable: (node) => void uses.set(node.name.value, (uses.get(node.name.value) ?? 0) + 1) });
  for (const def of op.variableDefinitions ?? []) uses.set(def.variable.name.value, (uses.get(def.variable.name.value) ?? 1) - 1);
  return uses;
}

/**
 * What the result of an operation asking only `ballotAtPoint` depends on besides the
 * document: not the point, but the ballot of its districts (the same for every point of
 * them, like REST's ballots by district set) and the other arguments and variables. So a
 * point never asked before, in districts already asked about, is answered from the result
 * cache without running the operation. Undefined for any other operation, or when the
 * point's coordinates are used anywhere else in it; then the result is keyed by its
 * variables as usual.
 */
export async function ballotScope(p: Prepared, principal: Principal, ballots: BallotLookup): Promise<string | undefined> {
  const op = p.operation;
  const root = op.selectionSet.selections;
  if (root.length !== 1 || root[0]!.kind !== Kind.FIELD || root[0]!.name.value !== 'ballotAtPoint') return undefined;
  const args = root[0]!.arguments ?? [];
  const lat = argValue(args, 'lat', p.variables);
  const lng = argValue(args, 'lng', p.variables);
  const date = argValue(args, 'date', p.variables);
  const min = argValue(args, 'minConfidence', p.variables) ?? { value: 0 };
  if (typeof lat?.value !== 'number' || typeof lng?.value !== 'number' || typeof date?.value !== 'string' || typeof min.value !== 'number') return undefined;
  const uses = variableUses(op);
  if ([lat.variable, lng.variable].some((v) => v !== undefined && uses.get(v) !== 1)) return undefined;
  let tag: string;
  try {
    tag = (await ballots.ballotAtPoint(principal, lat.value, lng.value, date.value, min.value)).entry.tag;
  } catch {
    return undefined; // the operation runs and reports the error itself
  }
  const others = Object.entries(p.variables).filter(([k]) => k !== lat.variable && k !== lng.variable);
  return `${tag}|${date.value}|${min.value}|${JSON.stringify(others)}`;
}

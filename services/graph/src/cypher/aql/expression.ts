import { InvalidParameterError, UnsupportedCypherError } from '@civicgraph/kit';
import { aql, join, type AqlQuery } from 'arangojs/aql';
import { NODE_KINDS, type NodeKind } from '../../model/kinds.js';
import { where, type Expr } from '../ast.js';
import { isFloat } from '../expressions.js';
import { propertiesOf, type PropertyType } from '../schema.js';
import { fromJson, type Value } from '../values.js';
import { fail, type Ops } from './ops.js';
import { accessAql, accessOf } from './properties.js';
import * as cy from './semantics.js';

/**
 * A Cypher expression as AQL: each operator through its openCypher rule (semantics.ts),
 * properties through the schema's table (properties.ts), parameters and literals as bind
 * variables. What a variable holds is known from where it was bound (a node pattern with
 * its label, a relationship, a variable-length relationship's list, any other value), and
 * the compiler uses it to read a property without asking the value its type.
 */
export type Binding =
  { sort: 'node'; ref: AqlQuery; kind: NodeKind | undefined } | { sort: 'rel' | 'rels' | 'value'; ref: AqlQuery };

export type Scope = ReadonlyMap<string, Binding>;

export interface ExprContext {
  params: Readonly<Record<string, unknown>>;
  /** The variable holding each aggregate's value, inside a projection that aggregates. */
  aggregates?: ReadonlyMap<Expr, AqlQuery>;
}

/** ArangoDB's document attributes: a caller map carrying `_id` or `_from` would read as a node or relationship. */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['_id', '_key', '_rev', '_from', '_to']);

export function refuseReservedKey(key: string, what: string): void {
  if (RESERVED_KEYS.has(key))
    throw new UnsupportedCypherError(
      `${what} with the key ${key} is not supported on this deployment's store (ArangoDB reserves the name).`,
      { field: 'query' },
    );
}

/** A parameter's value as the query binds it (the evaluator's `fromJson`), refusing reserved map keys. */
export function parameterValue(ctx: ExprContext, name: string, at: Expr & { kind: 'parameter' }): Value {
  if (!Object.hasOwn(ctx.params, name))
    throw new InvalidParameterError(
      'parameters',
      `The query uses $${name} (${where(at.at)}), which parameters does not give.`,
    );
  const v = fromJson(ctx.params[name]);
  const check = (x: Value): void => {
    if (Array.isArray(x)) x.forEach(check);
    else if (x !== null && typeof x === 'object')
      for (const [k, y] of Object.entries(x)) {
        refuseReservedKey(k, `The parameter $${name} holds a map`);
        check(y as Value);
      }
  };
  check(v);
  return v;
}

export function compileExpr(e: Expr, ops: Ops, scope: Scope, ctx: ExprContext): AqlQuery {
  const sub = (x: Expr): AqlQuery => compileExpr(x, ops, scope, ctx);
  switch (e.kind) {
    case 'literal':
      return aql`${e.value as Value}`;
    case 'parameter':
      return aql`${parameterValue(ctx, e.name, e)}`;
    case 'variable': {
      const b = scope.get(e.name);
      if (b === undefined)
        throw new InvalidParameterError('query', `Variable \`${e.name}\` is not defined (${where(e.at)}).`);
      return b.ref;
    }
    case 'property':
      return property(ops, e.of.kind === 'variable' ? scope.get(e.of.name) : undefined, sub(e.of), e.key);
    case 'index':
      return index(ops, e, scope, ctx);
    case 'list':
      return ops.let(aql`[${join(e.items.map(sub), ', ')}]`);
    case 'map': {
      for (const [k] of e.entries) refuseReservedKey(k, 'A map');
      return ops.let(
        aql`{${join(
          e.entries.map(([k, x]) => aql`[${k}]: ${sub(x)}`),
          ', ',
        )}}`,
      );
    }
    case 'not':
      return cy.not(ops, sub(e.arg));
    case 'logic':
      return cy.logic(ops, e.op, sub(e.args[0]!), sub(e.args[1]!));
    case 'compare': {
      const l = sub(e.left);
      const r = sub(e.right);
      if (e.op === '=' || e.op === '<>') {
        const eq = cy.equals(ops, l, r, isScalar(e.left, scope, ctx) || isScalar(e.right, scope, ctx));
        return e.op === '=' ? eq : ops.let(aql`(${eq} == null ? null : NOT ${eq})`);
      }
      return cy.compare(ops, e.op, l, r);
    }
    case 'arith':
      return cy.arithmetic(ops, e.op, sub(e.left), sub(e.right), isFloat(e.left) || isFloat(e.right));
    case 'negate':
      return cy.negate(ops, sub(e.arg));
    case 'string':
      return cy.stringTest(ops, e.op, sub(e.left), sub(e.right));
    case 'in':
      return cy.inList(ops, sub(e.left), sub(e.right), isScalar(e.left, scope, ctx) || scalarItems(e.right, ctx));
    case 'isNull': {
      const v = sub(e.arg);
      return ops.let(e.negated ? aql`(${v} != null)` : aql`(${v} == null)`);
    }
    case 'call':
      return call(ops, e.name, e.args.map(sub));
    case 'aggregate': {
      const v = ctx.aggregates?.get(e);
      if (v === undefined)
        throw new InvalidParameterError('query', `${e.name}() at ${where(e.at)} may only appear in WITH or RETURN.`);
      return v;
    }
  }
}

/** A property of a value: by the schema's table for a node, the data for a relationship, the key for a map. */
export function property(ops: Ops, b: Binding | undefined, of: AqlQuery, key: string): AqlQuery {
  if (b?.sort === 'node' && b.kind !== undefined) {
    const access = accessOf(b.kind, key);
    return access === undefined ? aql`null` : ops.let(accessAql(of, access));
  }
  if (b?.sort === 'node') return ops.let(nodeProperty(of, key));
  if (b?.sort === 'rel') return ops.let(aql`${of}.data[${key}]`);
  return ops.let(aql`(${of} == null ? null
    : ${cy.isNode(of)} ? ${nodeProperty(of, key)}
    : ${cy.isRel(of)} ? ${of}.data[${key}]
    : (IS_OBJECT(${of}) ? ${of}[${key}] : ${fail('invalid', `Cannot read property ${key} of a value that is not a map.`)}))`);
}

/** A node's property whatever its label: by the kinds that have it (none: null, as the evaluator's nodeProperty). */
function nodeProperty(node: AqlQuery, key: string): AqlQuery {
  const kinds = NODE_KINDS.filter((k) => accessOf(k, key) !== undefined);
  if (kinds.length === NODE_KINDS.length && new Set(kinds.map((k) => JSON.stringify(accessOf(k, key)))).size === 1)
    return accessAql(node, accessOf(kinds[0]!, key)!);
  let out = aql`null`;
  for (const k of kinds.reverse()) out = aql`(${node}.kind == ${k} ? ${accessAql(node, accessOf(k, key)!)} : ${out})`;
  return out;
}

/** `x[i]`: a list's item (negative from the end), a map's key, a node's or relationship's property. */
function index(ops: Ops, e: Expr & { kind: 'index' }, scope: Scope, ctx: ExprContext): AqlQuery {
  const of = compileExpr(e.of, ops, scope, ctx);
  if (e.index.kind === 'literal' && typeof e.index.value === 'string') {
    const b = e.of.kind === 'variable' ? scope.get(e.of.name) : undefined;
    return property(ops, b, of, e.index.value);
  }
  const i = compileExpr(e.index, ops, scope, ctx);
  // A key known only when the query runs: matched against every property name of the node's kind (fixed text).
  const byKind = NODE_KINDS.map((k) => {
    let v = aql`null`;
    for (const key of Object.keys(propertiesOf(k)).reverse())
      v = aql`(TO_HEX(${i}) == TO_HEX(${key}) ? ${accessAql(of, accessOf(k, key)!)} : ${v})`;
    return { k, v };
  });
  let nodeValue = aql`null`;
  for (const { k, v } of byKind.reverse()) nodeValue = aql`(${of}.kind == ${k} ? ${v} : ${nodeValue})`;
  return ops.let(aql`((${of} == null OR ${i} == null) ? null
    : (IS_ARRAY(${of}) AND IS_NUMBER(${i})) ? (${i} == FLOOR(${i}) ? ${of}[${i}] : null)
    : (${cy.isNode(of)} AND IS_STRING(${i})) ? ${nodeValue}
    : (${cy.isRel(of)} AND IS_STRING(${i})) ? ${of}.data[${i}]
    : (IS_OBJECT(${of}) AND IS_STRING(${i})) ? ${of}[${i}]
    : ${fail('invalid', 'Cannot index this value with this key.')})`);
}

/** Patterns for toInteger()/toFloat() of a string (JavaScript's Number() reads the string). */
const DECIMAL = '^[ \\t\\n\\r]*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?[ \\t\\n\\r]*$';
const BLANK = '^[ \\t\\n\\r]*$';
const RADIX = '^[ \\t\\n\\r]*0[xXoObB]';
const ASTRAL = '[\\x{10000}-\\x{10FFFF}]';

/**
 * The scalar functions of the subset (build-ast.ts SCALAR_FUNCTIONS) as the evaluator's
 * `call`: null in, null out (except coalesce); a value of the wrong type is an error.
 */
function call(ops: Ops, name: string, args: AqlQuery[]): AqlQuery {
  if (name === 'coalesce') return args.length === 0 ? aql`null` : ops.let(aql`NOT_NULL(${join(args, ', ')})`);
  const a = args[0]!;
  const wrong = fail('invalid', `${name}() cannot take this value.`);
  const number = (int: boolean) =>
    aql`(IS_NUMBER(${a}) ? ${int ? cy.trunc(a) : a}
      : IS_STRING(${a}) ? (REGEX_TEST(${a}, ${DECIMAL}) ? ${int ? cy.trunc(aql`TO_NUMBER(TRIM(${a}))`) : aql`TO_NUMBER(TRIM(${a}))`}
        : REGEX_TEST(${a}, ${BLANK}) ? 0
        : REGEX_TEST(${a}, ${RADIX}) ? ${fail('unsupported', `${name}() of a hexadecimal, octal or binary string`)}
        : null)
      : ${wrong})`;
  let body: AqlQuery;
  switch (name) {
    case 'size':
      // JavaScript counts UTF-16 code units, AQL characters: a character past U+FFFF counts twice.
      body = aql`(IS_STRING(${a}) ? (2 * LENGTH(${a}) - LENGTH(REGEX_REPLACE(${a}, ${ASTRAL}, ''))) : IS_ARRAY(${a}) ? LENGTH(${a}) : ${wrong})`;
      break;
    case 'tolower':
      body = aql`(IS_STRING(${a}) ? LOWER(${a}) : ${wrong})`;
      break;
    case 'toupper':
      body = aql`(IS_STRING(${a}) ? UPPER(${a}) : ${wrong})`;
      break;
    case 'type':
      body = aql`(${cy.isRel(a)} ? ${a}.kind : ${wrong})`;
      break;
    case 'labels':
      body = aql`(${cy.isNode(a)} ? [CONCAT(UPPER(LEFT(${a}.kind, 1)), SUBSTRING(${a}.kind, 1))] : ${wrong})`;
      break;
    case 'tostring':
      body = aql`(IS_STRING(${a}) ? ${a} : (IS_NUMBER(${a}) OR IS_BOOL(${a})) ? TO_STRING(${a}) : ${wrong})`;
      break;
    case 'tointeger':
      body = number(true);
      break;
    case 'tofloat':
      body = number(false);
      break;
    case 'abs':
      body = aql`(IS_NUMBER(${a}) ? ABS(${a}) : ${wrong})`;
      break;
    case 'round':
      // AQL's ROUND rounds halves up (ROUND(-2.5) is -2), as Math.round.
      body = aql`(IS_NUMBER(${a}) ? ROUND(${a}) : ${wrong})`;
      break;
    default:
      throw new UnsupportedCypherError(`the function ${name}() is not supported.`, { field: 'query' });
  }
  return ops.let(aql`(${a} == null ? null : ${body})`);
}

/** Whether every item of a list is known to be a scalar: a literal list of scalars, a parameter's list of them. */
function scalarItems(e: Expr, ctx: ExprContext): boolean {
  const scalar = (v: unknown) => v === null || v === undefined || typeof v !== 'object';
  if (e.kind === 'list') return e.items.every((i) => i.kind === 'literal' && scalar(i.value));
  if (e.kind === 'parameter') {
    const v = Object.hasOwn(ctx.params, e.name) ? ctx.params[e.name] : null;
    return Array.isArray(v) && v.every(scalar);
  }
  return false;
}

const SCALAR_TYPES: ReadonlySet<PropertyType> = new Set(['STRING', 'INT64', 'DOUBLE', 'BOOLEAN', 'DATE']);

/**
 * Whether an expression's value is known, before the query runs, to be a scalar (or null):
 * then `=` and IN need not compare lists and maps. Unknown is not a scalar.
 */
export function isScalar(e: Expr, scope: Scope, ctx: ExprContext): boolean {
  switch (e.kind) {
    case 'literal':
      return !Array.isArray(e.value) && (e.value === null || typeof e.value !== 'object');
    case 'parameter': {
      const v = Object.hasOwn(ctx.params, e.name) ? ctx.params[e.name] : null;
      return v === null || v === undefined || typeof v !== 'object';
    }
    case 'property': {
      if (e.of.kind !== 'variable') return false;
      const b = scope.get(e.of.name);
      if (b?.sort !== 'node') return false;
      const kinds = b.kind === undefined ? NODE_KINDS : [b.kind];
      return kinds.every((k) => {
        const p = propertiesOf(k)[e.key];
        return p === undefined || SCALAR_TYPES.has(p.type);
      });
    }
    case 'not':
    case 'logic':
    case 'compare':
    case 'negate':
    case 'string':
    case 'in':
    case 'isNull':
      return true;
    case 'arith':
      return e.op !== '+';
    case 'call':
      return e.name !== 'coalesce' && e.name !== 'labels';
    case 'aggregate':
      return e.name === 'count' || e.name === 'sum' || e.name === 'avg';
    default:
      return false;
  }
}

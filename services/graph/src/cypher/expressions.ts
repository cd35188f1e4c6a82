import { InvalidParameterError } from '@civicgraph/kit';
import { where, type Expr } from './ast.js';
import { DOUBLE_PROPERTIES, labelOf, nodeProperty, relProperty, viewNodeProperty } from './schema.js';
import { compare, equals, fromJson, isMap, NodeValue, RelValue, type Value } from './values.js';

export { Row } from './row.js';
import type { Row } from './row.js';

export interface Env {
  params: Readonly<Record<string, unknown>>;
  /** The values of a group's aggregates, when a projection evaluates its items over a group. */
  aggregates?: ReadonlyMap<Expr, Value>;
}

/** An expression's value on a row; openCypher's null rules throughout. */
export function evaluate(e: Expr, row: Row, env: Env): Value {
  switch (e.kind) {
    case 'literal':
      return e.value as Value;
    case 'parameter':
      if (!Object.hasOwn(env.params, e.name))
        throw new InvalidParameterError(
          'parameters',
          `The query uses $${e.name} (${where(e.at)}), which parameters does not give.`,
        );
      return fromJson(env.params[e.name]);
    case 'variable': {
      const v = row.get(e.name);
      if (v === undefined)
        throw new InvalidParameterError('query', `Variable \`${e.name}\` is not defined (${where(e.at)}).`);
      return v;
    }
    case 'property':
      return property(evaluate(e.of, row, env), e.key);
    case 'index':
      return index(evaluate(e.of, row, env), evaluate(e.index, row, env));
    case 'list':
      return evaluateAll(e.items, row, env);
    case 'map':
      return evaluateMap(e.entries, row, env);
    case 'not': {
      const v = truth(evaluate(e.arg, row, env));
      return v === null ? null : !v;
    }
    case 'logic':
      return logic(e.op, e.args, row, env);
    case 'compare':
      return comparison(e.op, evaluate(e.left, row, env), evaluate(e.right, row, env));
    case 'arith':
      return arithmetic(
        e.op,
        evaluate(e.left, row, env),
        evaluate(e.right, row, env),
        isFloat(e.left) || isFloat(e.right),
      );
    case 'negate': {
      const v = evaluate(e.arg, row, env);
      return typeof v === 'number' ? -v : null;
    }
    case 'string':
      return stringTest(e.op, evaluate(e.left, row, env), evaluate(e.right, row, env));
    case 'in':
      return inList(evaluate(e.left, row, env), evaluate(e.right, row, env));
    case 'isNull': {
      const isNull = evaluate(e.arg, row, env) === null;
      return e.negated ? !isNull : isNull;
    }
    case 'call':
      return call(e.name, evaluateAll(e.args, row, env));
    case 'aggregate': {
      const v = env.aggregates?.get(e);
      if (v === undefined)
        throw new InvalidParameterError('query', `${e.name}() at ${where(e.at)} may only appear in WITH or RETURN.`);
      return v;
    }
  }
}

// No closure inside `evaluate` itself: one capturing its row and env would make every call
// allocate a context for them, even calls that never reach it.
function evaluateAll(items: readonly Expr[], row: Row, env: Env): Value[] {
  const out = new Array<Value>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = evaluate(items[i]!, row, env);
  return out;
}

function evaluateMap(entries: readonly [string, Expr][], row: Row, env: Env): { [key: string]: Value } {
  return Object.fromEntries(entries.map(([k, x]) => [k, evaluate(x, row, env)]));
}

/** A value as a predicate: true, false, or null (unknown). Anything else is not a predicate. */
export function truth(v: Value): boolean | null {
  if (v === null || typeof v === 'boolean') return v;
  throw new InvalidParameterError('query', `A condition must be true, false or null, not ${JSON.stringify(v)}.`);
}

function property(of: Value, key: string): Value {
  if (of === null) return null;
  if (of instanceof NodeValue)
    return fromJson(of.view === undefined ? nodeProperty(of.doc, key) : viewNodeProperty(of.view, of.id, key));
  if (of instanceof RelValue) return fromJson(relProperty(of.edge, key));
  if (isMap(of)) return of[key] ?? null;
  throw new InvalidParameterError('query', `Cannot read property ${key} of ${JSON.stringify(of)}.`);
}

function index(of: Value, i: Value): Value {
  if (of === null || i === null) return null;
  if (Array.isArray(of) && typeof i === 'number') return of[i < 0 ? of.length + i : i] ?? null;
  if (isMap(of) && typeof i === 'string') return of[i] ?? null;
  if ((of instanceof NodeValue || of instanceof RelValue) && typeof i === 'string') return property(of, i);
  throw new InvalidParameterError('query', `Cannot index ${JSON.stringify(of)} with ${JSON.stringify(i)}.`);
}

function logic(op: 'and' | 'or' | 'xor', args: Expr[], row: Row, env: Env): Value {
  const [l, r] = [truth(evaluate(args[0]!, row, env)), truth(evaluate(args[1]!, row, env))];
  if (op === 'and') return l === false || r === false ? false : l === null || r === null ? null : true;
  if (op === 'or') return l === true || r === true ? true : l === null || r === null ? null : false;
  return l === null || r === null ? null : l !== r;
}

function comparison(op: string, l: Value, r: Value): Value {
  if (op === '=') return equals(l, r);
  if (op === '<>') {
    const e = equals(l, r);
    return e === null ? null : !e;
  }
  const c = compare(l, r);
  if (c === null) return null;
  return op === '<' ? c < 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : c >= 0;
}

/**
 * Whether an expression is a float in openCypher's sense, known from how it is written: a
 * float literal, a property the schema types DOUBLE, avg(), toFloat(), or arithmetic on
 * one. JavaScript has one number type, so `share / 2` would otherwise divide as integers
 * whenever a share is whole (1.0); a whole-valued float parameter still counts as an integer.
 */
export function isFloat(e: Expr): boolean {
  let known = FLOATS.get(e);
  if (known === undefined) {
    known = floatByForm(e);
    FLOATS.set(e, known);
  }
  return known;
}

const FLOATS = new WeakMap<Expr, boolean>();

function floatByForm(e: Expr): boolean {
  switch (e.kind) {
    case 'literal':
      return e.float === true;
    case 'property':
      return DOUBLE_PROPERTIES.has(e.key);
    case 'aggregate':
      return e.name === 'avg' || (e.arg !== '*' && e.name !== 'count' && e.name !== 'collect' && isFloat(e.arg));
    case 'call':
      return e.name === 'tofloat' || (e.name === 'coalesce' && e.args.some(isFloat));
    case 'arith':
      return isFloat(e.left) || isFloat(e.right);
    case 'negate':
      return isFloat(e.arg);
    default:
      return false;
  }
}

function arithmetic(op: string, l: Value, r: Value, float = false): Value {
  if (l === null || r === null) return null;
  if (op === '+') {
    if (Array.isArray(l)) return Array.isArray(r) ? [...l, ...r] : [...l, r];
    if (Array.isArray(r)) return [l, ...r];
    if (typeof l === 'string' || typeof r === 'string') {
      if (typeof l === 'object' || typeof r === 'object') return invalidArithmetic(op, l, r);
      return `${String(l)}${String(r)}`;
    }
  }
  if (typeof l !== 'number' || typeof r !== 'number') return invalidArithmetic(op, l, r);
  switch (op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      // Integers divide as integers (openCypher); a division by zero of integers is an error.
      if (!float && Number.isInteger(l) && Number.isInteger(r)) {
        if (r === 0) throw new InvalidParameterError('query', 'Division by zero.');
        return Math.trunc(l / r);
      }
      return l / r;
    case '%':
      return l % r;
    default:
      return l ** r;
  }
}

function invalidArithmetic(op: string, l: Value, r: Value): never {
  throw new InvalidParameterError('query', `Cannot apply ${op} to ${JSON.stringify(l)} and ${JSON.stringify(r)}.`);
}

function stringTest(op: 'starts' | 'ends' | 'contains', l: Value, r: Value): Value {
  if (typeof l !== 'string' || typeof r !== 'string') return null;
  return op === 'starts' ? l.startsWith(r) : op === 'ends' ? l.endsWith(r) : l.includes(r);
}

function inList(l: Value, list: Value): Value {
  if (list === null) return null;
  if (!Array.isArray(list)) throw new InvalidParameterError('query', 'The right side of IN must be a list.');
  let unknown = false;
  for (const item of list) {
    const e = equals(l, item);
    if (e === true) return true;
    if (e === null) unknown = true;
  }
  return unknown ? null : false;
}

function call(name: string, args: Value[]): Value {
  const [a] = args;
  if (name === 'coalesce') return args.find((v) => v !== null) ?? null;
  if (a === null || a === undefined) return null;
  switch (name) {
    case 'size':
      if (typeof a === 'string' || Array.isArray(a)) return a.length;
      break;
    case 'tolower':
      if (typeof a === 'string') return a.toLowerCase();
      break;
    case 'toupper':
      if (typeof a === 'string') return a.toUpperCase();
      break;
    case 'type':
      if (a instanceof RelValue) return a.edge.kind;
      break;
    case 'labels':
      if (a instanceof NodeValue) return [labelOf(a.doc.kind)];
      break;
    case 'tostring':
      if (typeof a === 'string' || typeof a === 'number' || typeof a === 'boolean') return String(a);
      break;
    case 'tointeger':
      if (typeof a === 'number') return Math.trunc(a);
      if (typeof a === 'string') {
        const n = Number(a);
        return Number.isFinite(n) ? Math.trunc(n) : null;
      }
      break;
    case 'tofloat':
      if (typeof a === 'number') return a;
      if (typeof a === 'string') {
        const n = Number(a);
        return Number.isFinite(n) ? n : null;
      }
      break;
    case 'abs':
      if (typeof a === 'number') return Math.abs(a);
      break;
    case 'round':
      if (typeof a === 'number') return Math.round(a);
      break;
  }
  throw new InvalidParameterError('query', `${name}() cannot take ${JSON.stringify(a)}.`);
}

/** Every aggregate call inside an expression (not inside another aggregate). */
export function aggregatesIn(e: Expr, out: Expr[] = []): Expr[] {
  if (e.kind === 'aggregate') {
    out.push(e);
    return out;
  }
  for (const sub of subExpressions(e)) aggregatesIn(sub, out);
  return out;
}

/** The direct sub-expressions of an expression. */
export function subExpressions(e: Expr): Expr[] {
  switch (e.kind) {
    case 'property':
      return [e.of];
    case 'index':
      return [e.of, e.index];
    case 'list':
      return e.items;
    case 'map':
      return e.entries.map(([, x]) => x);
    case 'not':
    case 'negate':
    case 'isNull':
      return [e.arg];
    case 'logic':
    case 'call':
      return e.args;
    case 'compare':
    case 'arith':
    case 'string':
    case 'in':
      return [e.left, e.right];
    case 'aggregate':
      return e.arg === '*' ? [] : [e.arg];
    default:
      return [];
  }
}

import { InvalidParameterError, UnsupportedCypherError } from '@civicgraph/kit';
import {
  AGGREGATES,
  where as at,
  type AggregateName,
  type Clause,
  type Expr,
  type NodePattern,
  type PathPattern,
  type Position,
  type Projection,
  type Query,
  type RelPattern,
  type ReturnItem,
} from './ast.js';
import { child, children, kids, parseTree, positionOf, ruleOf, words, type Tree } from './syntax.js';

/**
 * A query as the executor runs it: parsed by the grammar (syntax.ts), then turned into the
 * supported subset (ast.ts). Anything else, a writing clause, a procedure call, UNION, a
 * path variable, an unbounded path, is refused here with `unsupported_cypher`, naming the
 * construct and where it starts.
 */
export function parseQuery(text: string): Query {
  const tree = parseTree(text);
  const parts = children(tree, 'cypherPart');
  if (parts.length !== 1) throw unsupported('more than one statement', positionOf(parts[1] ?? tree));
  const cq = child(parts[0]!, 'cypherQuery');
  if (cq === undefined) throw unsupported('console commands', positionOf(parts[0]!));
  const options = child(cq, 'queryOptions');
  if (options !== undefined && kids(options).length > 0)
    throw unsupported('query options (EXPLAIN, PROFILE, CYPHER)', positionOf(options));
  const statement = child(cq, 'statement')!;
  const query = child(statement, 'query');
  if (query === undefined) throw unsupported('administration commands', positionOf(statement));
  const regular = child(query, 'regularQuery');
  if (regular === undefined) throw unsupported(clauseWords(kids(query)[0]!), positionOf(query));
  const union = child(regular, 'union');
  if (union !== undefined) throw unsupported('UNION', positionOf(union));
  const single = child(regular, 'singleQuery')!;
  const clauses = children(single, 'clause').map((c) => buildClause(kids(c)[0]!));
  if (single !== undefined && children(single, 'clause').length === 0)
    throw unsupported(clauseWords(kids(single)[0]!), positionOf(single));
  const last = clauses[clauses.length - 1];
  if (last?.kind !== 'return') throw new InvalidParameterError('query', 'A query must end with RETURN.');
  for (const c of clauses.slice(0, -1)) {
    if (c.kind === 'return') throw unsupported('RETURN before the end of the query', c.at);
  }
  return { clauses };
}

function unsupported(what: string, pos: Position): UnsupportedCypherError {
  return new UnsupportedCypherError(
    `${what} at ${at(pos)} is not supported: civicgraph runs read-only queries of MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND and RETURN (see GET /v1/cypher/schema).`,
    { field: 'query' },
  );
}

/** The words a clause or statement starts with, for naming it: `CREATE`, `CALL`, `LOAD CSV`. */
function clauseWords(t: Tree): string {
  let node: Tree | undefined = t;
  while (node !== undefined && node.symbol === undefined && kids(node).length > 0) {
    const first = kids(node).find((k) => k.symbol !== undefined);
    if (first !== undefined) {
      return kids(node)
        .filter((k) => k.symbol !== undefined && /^[A-Za-z]+$/.test(k.symbol.text))
        .slice(0, 2)
        .map((k) => k.symbol!.text.toUpperCase())
        .join(' ');
    }
    node = kids(node)[0];
  }
  return t.getText().split(/\s/)[0]!.toUpperCase();
}

function buildClause(t: Tree): Clause {
  const pos = positionOf(t);
  switch (ruleOf(t)) {
    case 'matchClause': {
      if (child(t, 'hint') !== undefined) throw unsupported('index hints', positionOf(child(t, 'hint')!));
      const w = child(t, 'where');
      return {
        kind: 'match',
        optional: words(t).includes('OPTIONAL'),
        patterns: buildPattern(child(t, 'pattern')!),
        where: w === undefined ? undefined : buildExpr(child(w, 'expression')!),
        at: pos,
      };
    }
    case 'unwindClause':
      return { kind: 'unwind', expr: buildExpr(child(t, 'expression')!), as: name(child(t, 'variable')!), at: pos };
    case 'withClause': {
      const w = child(t, 'where');
      return {
        kind: 'with',
        projection: buildProjection(t),
        where: w === undefined ? undefined : buildExpr(child(w, 'expression')!),
        at: pos,
      };
    }
    case 'returnClause':
      return { kind: 'return', projection: buildProjection(t), at: pos };
    default:
      throw unsupported(clauseWords(t), pos);
  }
}

function buildProjection(t: Tree): Projection {
  const body = child(t, 'returnBody')!;
  const items = child(body, 'returnItems')!;
  const call = child(items, 'func');
  if (call !== undefined)
    throw unsupported(
      `the procedure ${child(call, 'procedureInvocation')?.getText().split('(')[0] ?? ''}`,
      positionOf(call),
    );
  const order = child(body, 'order');
  const skip = child(body, 'skip');
  const limit = child(body, 'limit');
  return {
    distinct: words(t).includes('DISTINCT'),
    star: words(items).includes('*'),
    items: children(items, 'returnItem').map(buildReturnItem),
    order:
      order === undefined
        ? []
        : children(order, 'sortItem').map((s) => ({
            expr: buildExpr(child(s, 'expression')!),
            descending: words(s).some((w) => w.startsWith('DESC')),
          })),
    skip: skip === undefined ? undefined : buildExpr(child(skip, 'expression')!),
    limit: limit === undefined ? undefined : buildExpr(child(limit, 'expression')!),
    at: positionOf(t),
  };
}

function buildReturnItem(t: Tree): ReturnItem {
  const e = child(t, 'expression')!;
  const alias = child(t, 'variable');
  return { expr: buildExpr(e), name: alias === undefined ? e.getText() : name(alias) };
}

// ——— patterns ———

function buildPattern(t: Tree): PathPattern[] {
  return children(t, 'patternPart').map((part) => {
    if (child(part, 'variable') !== undefined) throw unsupported('path variables (p = …)', positionOf(part));
    const anon = child(part, 'anonymousPatternPart')!;
    const shortest = child(anon, 'shortestPathPatternFunction');
    if (shortest !== undefined) throw unsupported('shortestPath', positionOf(shortest));
    return buildElement(child(anon, 'patternElement')!);
  });
}

function buildElement(t: Tree): PathPattern {
  const nested = child(t, 'patternElement');
  if (nested !== undefined) return buildElement(nested);
  const nodes = [buildNode(child(t, 'nodePattern')!)];
  const rels: RelPattern[] = [];
  for (const chain of children(t, 'patternElementChain')) {
    rels.push(buildRel(child(chain, 'relationshipPattern')!));
    nodes.push(buildNode(child(chain, 'nodePattern')!));
  }
  return { nodes, rels };
}

function buildNode(t: Tree): NodePattern {
  const v = child(t, 'variable');
  const labels = child(t, 'nodeLabels');
  return {
    variable: v === undefined ? undefined : name(v),
    labels: labels === undefined ? [] : children(labels, 'nodeLabel').map((l) => name(child(l, 'labelName')!)),
    properties: buildProperties(child(t, 'properties')),
    at: positionOf(t),
  };
}

function buildRel(t: Tree): RelPattern {
  const left = child(child(t, 'relationshipPatternStart')!, 'leftArrowHead') !== undefined;
  const right = child(child(t, 'relationshipPatternEnd')!, 'rightArrowHead') !== undefined;
  const detail = child(t, 'relationshipDetail');
  const v = detail === undefined ? undefined : child(detail, 'variable');
  const types = detail === undefined ? undefined : child(detail, 'relationshipTypes');
  const range = detail === undefined ? undefined : child(detail, 'rangeLiteral');
  return {
    variable: v === undefined ? undefined : name(v),
    types:
      types === undefined
        ? []
        : kids(types)
            .filter((k) => ruleOf(k) !== '')
            .map((k) => name(child(k, 'relTypeName')!)),
    direction: left === right ? 'both' : left ? 'in' : 'out',
    properties: buildProperties(detail === undefined ? undefined : child(detail, 'properties')),
    hops: range === undefined ? undefined : buildRange(range),
    at: positionOf(t),
  };
}

/** `*n`, `*n..m`, `*..m`; an unbounded length (`*`, `*n..`) is refused: every path must end. */
function buildRange(t: Tree): { min: number; max: number } {
  const ints = children(t, 'integerLiteral').map((i) => Number(i.getText()));
  const dots = words(t).includes('..');
  const parts = kids(t).map((k) => (ruleOf(k) === 'integerLiteral' ? 'n' : k.getText()));
  if (!dots) {
    if (ints.length === 0)
      throw unsupported('unbounded variable-length relationships (give an upper bound, *1..3)', positionOf(t));
    return { min: ints[0]!, max: ints[0]! };
  }
  if (parts[parts.length - 1] !== 'n')
    throw unsupported('unbounded variable-length relationships (give an upper bound, *1..3)', positionOf(t));
  return parts[1] === 'n' ? { min: ints[0]!, max: ints[1]! } : { min: 1, max: ints[0]! };
}

function buildProperties(t: Tree | undefined): [string, Expr][] {
  if (t === undefined) return [];
  const map = child(t, 'mapLiteral');
  if (map === undefined) throw unsupported('a parameter as a property map', positionOf(t));
  return children(map, 'literalEntry').map((e) => [
    name(child(e, 'propertyKeyName')!),
    buildExpr(child(e, 'expression')!),
  ]);
}

// ——— expressions ———

/** A name as written, backticks removed. */
function name(t: Tree): string {
  const text = t.getText();
  return text.startsWith('`') && text.endsWith('`') ? text.slice(1, -1).replaceAll('``', '`') : text;
}

/** Folds `a op b op c` levels: children alternate operand rules and operator tokens. */
function chain(t: Tree, build: (t: Tree) => Expr, combine: (op: string, l: Expr, r: Expr) => Expr): Expr {
  const ks = kids(t);
  let acc = build(ks[0]!);
  for (let i = 1; i + 1 < ks.length; i += 2) acc = combine(ks[i]!.getText().toUpperCase(), acc, build(ks[i + 1]!));
  return acc;
}

function logic(op: 'and' | 'or' | 'xor') {
  return (_: string, l: Expr, r: Expr): Expr => ({ kind: 'logic', op, args: [l, r] });
}

export function buildExpr(t: Tree): Expr {
  switch (ruleOf(t)) {
    case 'expression':
      return buildExpr(child(t, 'orExpression')!);
    case 'orExpression':
      return chain(t, buildExpr, logic('or'));
    case 'xorExpression':
      return chain(t, buildExpr, logic('xor'));
    case 'andExpression':
      return chain(t, buildExpr, logic('and'));
    case 'notExpression': {
      const nots = words(t).filter((w) => w === 'NOT').length;
      let e = buildExpr(child(t, 'comparisonExpression')!);
      for (let i = 0; i < nots; i++) e = { kind: 'not', arg: e };
      return e;
    }
    case 'comparisonExpression':
      return buildComparison(t);
    case 'addOrSubtractExpression':
    case 'multiplyDivideModuloExpression':
    case 'powerOfExpression':
      return chain(t, buildExpr, (op, left, right) => ({ kind: 'arith', op: op as '+', left, right }));
    case 'unaryAddOrSubtractExpression': {
      const minus = words(t).filter((w) => w === '-').length;
      const e = buildExpr(child(t, 'stringListNullOperatorExpression')!);
      return minus % 2 === 1 ? { kind: 'negate', arg: e } : e;
    }
    case 'stringListNullOperatorExpression':
      return buildPostfix(t);
    case 'propertyOrLabelsExpression': {
      const labels = child(t, 'nodeLabels');
      if (labels !== undefined)
        throw unsupported(
          'label predicates (n:Label) in expressions; put the label in the pattern',
          positionOf(labels),
        );
      let e = buildAtom(child(t, 'atom')!);
      for (const lookup of children(t, 'propertyLookup')) {
        const key = child(lookup, 'propertyKeyName')!;
        e = { kind: 'property', of: e, key: name(key), at: positionOf(key) };
      }
      return e;
    }
    default:
      throw unsupported(`the expression ${JSON.stringify(t.getText().slice(0, 40))}`, positionOf(t));
  }
}

function buildComparison(t: Tree): Expr {
  const first = buildExpr(child(t, 'addOrSubtractExpression')!);
  const partials = children(t, 'partialComparisonExpression');
  if (partials.length === 0) return first;
  const tests: Expr[] = [];
  let left = first;
  for (const p of partials) {
    const op = kids(p)[0]!.getText();
    if (!['=', '<>', '<', '>', '<=', '>='].includes(op)) throw unsupported(`the operator ${op}`, positionOf(p));
    const right = buildExpr(child(p, 'addOrSubtractExpression')!);
    tests.push({ kind: 'compare', op: op as '=', left, right });
    left = right;
  }
  return tests.length === 1 ? tests[0]! : { kind: 'logic', op: 'and', args: tests };
}

/** `x[i]`, `x IN list`, `x STARTS WITH s`, `x IS NULL`…, applied left to right. */
function buildPostfix(t: Tree): Expr {
  const ks = kids(t);
  let e = buildExpr(ks[0]!);
  let i = 1;
  while (i < ks.length) {
    const w = ks[i]!.getText().toUpperCase();
    if (w === '[') {
      const close = ks.findIndex((k, j) => j > i && k.getText() === ']');
      const inner = ks.slice(i + 1, close);
      if (inner.length !== 1 || ruleOf(inner[0]!) !== 'expression')
        throw unsupported('list slices', positionOf(ks[i]!));
      e = { kind: 'index', of: e, index: buildExpr(inner[0]!) };
      i = close + 1;
    } else if (w === 'IS') {
      const negated = ks[i + 1]!.getText().toUpperCase() === 'NOT';
      e = { kind: 'isNull', arg: e, negated };
      i += negated ? 3 : 2;
    } else if (w === 'IN') {
      e = { kind: 'in', left: e, right: buildExpr(ks[i + 1]!) };
      i += 2;
    } else if (w === 'STARTS' || w === 'ENDS') {
      e = { kind: 'string', op: w === 'STARTS' ? 'starts' : 'ends', left: e, right: buildExpr(ks[i + 2]!) };
      i += 3;
    } else if (w === 'CONTAINS') {
      e = { kind: 'string', op: 'contains', left: e, right: buildExpr(ks[i + 1]!) };
      i += 2;
    } else {
      throw unsupported(`the operator ${ks[i]!.getText()}`, positionOf(ks[i]!));
    }
  }
  return e;
}

function buildAtom(t: Tree): Expr {
  const k = kids(t);
  const first = k[0]!;
  switch (ruleOf(first)) {
    case 'literal':
      return buildLiteral(first);
    case 'parameter': {
      const p = child(first, 'newParameter');
      if (p === undefined) throw unsupported('{param} parameters; write $param', positionOf(first));
      return { kind: 'parameter', name: name(child(p, 'parameterName')!), at: positionOf(first) };
    }
    case 'variable':
      return { kind: 'variable', name: name(first), at: positionOf(first) };
    case 'parenthesizedExpression':
      return buildExpr(child(first, 'expression')!);
    case 'functionInvocation':
      return buildCall(first);
    case '':
      // COUNT(*) is its own atom in the grammar.
      if (first.getText().toUpperCase() === 'COUNT')
        return { kind: 'aggregate', name: 'count', arg: '*', distinct: false, at: positionOf(first) };
      break;
  }
  throw unsupported(describe(first), positionOf(first));
}

function describe(t: Tree): string {
  const rule = ruleOf(t);
  const names: Record<string, string> = {
    caseExpression: 'CASE',
    listComprehension: 'list comprehensions',
    patternComprehension: 'pattern comprehensions',
    relationshipsPattern: 'pattern predicates',
    mapProjection: 'map projections',
    existsFunction: 'exists()',
    filterFunction: 'filter()',
    extractFunction: 'extract()',
    reduceFunction: 'reduce()',
    allFunction: 'all()',
    anyFunction: 'any()',
    noneFunction: 'none()',
    singleFunction: 'single()',
    shortestPathPatternFunction: 'shortestPath',
  };
  return names[rule] ?? `the expression ${JSON.stringify(t.getText().slice(0, 40))}`;
}

/** Functions the subset has besides the aggregates, each with its argument count. */
export const SCALAR_FUNCTIONS: Readonly<Record<string, number>> = {
  size: 1,
  tolower: 1,
  toupper: 1,
  coalesce: -1,
  type: 1,
  labels: 1,
  tostring: 1,
  tointeger: 1,
  tofloat: 1,
  abs: 1,
  round: 1,
};

function buildCall(t: Tree): Expr {
  const body = child(t, 'functionInvocationBody')!;
  const ns = child(body, 'namespace');
  const fname = name(child(body, 'functionName')!);
  const pos = positionOf(t);
  if (ns !== undefined && ns.getText() !== '') throw unsupported(`the function ${ns.getText()}${fname}`, pos);
  const args = children(t, 'expression').map(buildExpr);
  const distinct = words(t).includes('DISTINCT');
  const lower = fname.toLowerCase();
  if ((AGGREGATES as readonly string[]).includes(lower)) {
    if (args.length !== 1) throw new InvalidParameterError('query', `${fname}() at ${at(pos)} takes one argument.`);
    return { kind: 'aggregate', name: lower as AggregateName, arg: args[0]!, distinct, at: pos };
  }
  const arity = SCALAR_FUNCTIONS[lower];
  if (arity === undefined) throw unsupported(`the function ${fname}()`, pos);
  if (distinct) throw unsupported(`DISTINCT in ${fname}()`, pos);
  if (arity >= 0 && args.length !== arity)
    throw new InvalidParameterError(
      'query',
      `${fname}() at ${at(pos)} takes ${arity} argument${arity === 1 ? '' : 's'}.`,
    );
  return { kind: 'call', name: lower, args, at: pos };
}

function buildLiteral(t: Tree): Expr {
  const k = kids(t)[0]!;
  switch (ruleOf(k)) {
    case 'numberLiteral': {
      const n = kids(k)[0]!;
      const text = n.getText();
      if (ruleOf(n) === 'integerLiteral') {
        const v = text.toLowerCase().startsWith('0x')
          ? parseInt(text.slice(2), 16)
          : /^0\d/.test(text)
            ? parseInt(text, 8)
            : Number(text);
        return { kind: 'literal', value: v };
      }
      return { kind: 'literal', value: Number(text), float: true };
    }
    case 'stringLiteral':
      return { kind: 'literal', value: unquote(k.getText()) };
    case 'booleanLiteral':
      return { kind: 'literal', value: k.getText().toUpperCase() === 'TRUE' };
    case 'listLiteral':
      return { kind: 'list', items: children(k, 'expression').map(buildExpr) };
    case 'mapLiteral':
      return {
        kind: 'map',
        entries: children(k, 'literalEntry').map((e) => [
          name(child(e, 'propertyKeyName')!),
          buildExpr(child(e, 'expression')!),
        ]),
      };
    default:
      if (k.getText().toUpperCase() === 'NULL') return { kind: 'literal', value: null };
      throw unsupported(`the literal ${k.getText().slice(0, 40)}`, positionOf(k));
  }
}

const ESCAPES: Record<string, string> = { t: '\t', b: '\b', n: '\n', r: '\r', f: '\f', "'": "'", '"': '"', '\\': '\\' };

/** A string literal's value: quotes removed, backslash escapes (`\n`, `\'`, `\uXXXX`) read. */
function unquote(text: string): string {
  return text
    .slice(1, -1)
    .replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_m, e: string) =>
      e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e),
    );
}

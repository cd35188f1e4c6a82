import fc from 'fast-check';
import type { Catalogue, LabelInfo, PropInfo, RelInfo } from './graph-catalogue.js';

/**
 * Random read queries over a graph's catalogue, inside the part of the subset where
 * civicgraph and kuzu must agree (the corners left out are listed in oracle.int.test.ts):
 * a label, maybe with an inline property; maybe a relationship of a type that label carries
 * (directed either way or undirected; optional, a path of 0 to 3 hops, or followed by a
 * second relationship of another type); a WHERE of one to three predicates joined by
 * AND/OR/XOR, some negated, on properties of the right type with values the graph holds
 * (literal or `$parameter`) or comparing two variables' properties; and a RETURN of
 * properties (maybe DISTINCT, maybe ordered by every column with SKIP/LIMIT) or of
 * aggregates grouped by properties (maybe filtered by WITH … WHERE, ordered by the keys).
 */
export interface GeneratedQuery {
  query: string;
  parameters: Record<string, unknown>;
  /** The rows' order is total and part of the answer. */
  ordered: boolean;
  /** The answer holds collect()ed lists, whose order is not. */
  unorderedLists: boolean;
}

/** Query text with holes for parameters, numbered when the query is put together. */
type Text = (string | { param: unknown })[];

interface Var {
  name: string;
  props: PropInfo[];
}

interface Shape {
  match: string;
  optional: string | undefined;
  /** Bound by MATCH: its WHERE may name them. */
  matched: Var[];
  /** Bound by OPTIONAL MATCH (null when it misses): its WHERE may name them. */
  optionals: Var[];
}

export function generatedQuery(cat: Catalogue): fc.Arbitrary<GeneratedQuery> {
  return shape(cat).chain((s) =>
    fc
      .record({
        where: whereOf(s.matched),
        optionalWhere: s.optional === undefined ? fc.constant(undefined) : whereOf(s.optionals, 1),
        ret: returnOf([...s.matched, ...s.optionals]),
      })
      .map(({ where, optionalWhere, ret }) => {
        const text: Text = [s.match];
        if (where !== undefined) text.push(' WHERE ', ...where);
        if (s.optional !== undefined) text.push(' ', s.optional);
        if (optionalWhere !== undefined) text.push(' WHERE ', ...optionalWhere);
        text.push(' ', ...ret.text);
        return { ...assemble(text), ordered: ret.ordered, unorderedLists: ret.unorderedLists };
      }),
  );
}

// ——— patterns ———

function shape(cat: Catalogue): fc.Arbitrary<Shape> {
  return fc.constantFrom(...cat.labels).chain((a) =>
    inlineOf(a).chain((inline) => {
      const node = `(a:${a.label}${inline})`;
      const rels = relationshipsOf(cat, a.label);
      const alone = fc.constant<Shape>({
        match: `MATCH ${node}`,
        optional: undefined,
        matched: [vars(a)],
        optionals: [],
      });
      if (rels.length === 0) return alone;
      return fc.oneof(
        { arbitrary: alone, weight: 1 },
        { arbitrary: fc.constantFrom(...rels).chain((r) => withRelationship(cat, a, node, r)), weight: 3 },
      );
    }),
  );
}

function relationshipsOf(cat: Catalogue, label: string): RelInfo[] {
  return cat.relationships.filter((r) => r.from.includes(label) || r.to.includes(label));
}

/** Sometimes an inline property of the first node, `{state: 'co'}`, as a WHERE equality would say. */
function inlineOf(a: LabelInfo): fc.Arbitrary<string> {
  const props = a.props.filter((p) => p.type !== 'STRING[]' && p.values.length > 0);
  if (props.length === 0) return fc.constant('');
  const one = fc
    .constantFrom(...props)
    .chain((p) => fc.constantFrom(...p.values).map((v) => ` {\`${p.name}\`: ${literal(v)}}`));
  return fc.oneof({ arbitrary: fc.constant(''), weight: 3 }, { arbitrary: one, weight: 1 });
}

function vars(l: LabelInfo, name = 'a'): Var {
  return { name, props: l.props };
}

interface Step {
  /** `-[r:TYPE]->`, `<-[:TYPE*1..2]-`, `-[r:TYPE]-`. */
  arrow: string;
  /** The label at its other end. */
  other: LabelInfo;
  /** The relationship's variable, when it is one relationship. */
  rel: Var[];
}

/** One relationship from a node of a label: either way it may point, undirected, or a path of several. */
function step(cat: Catalogue, label: string, r: RelInfo, relVar: string, paths: boolean): fc.Arbitrary<Step> {
  const sides = [...(r.from.includes(label) ? ['out'] : []), ...(r.to.includes(label) ? ['in'] : [])];
  return fc
    .record({
      side: fc.constantFrom(...sides),
      undirected: fc.boolean(),
      hops: fc.constantFrom('*1..2', '*2..2', '*1..3', '*0..1'),
    })
    .chain(({ side, undirected, hops }) => {
      // Paths of several hops only where they stay small: directed, or between regions.
      const many = paths && (!undirected || r.from.every((l) => r.to.includes(l)));
      const rel = many ? `[:${r.type}${hops}]` : `[${relVar}:${r.type}]`;
      const arrow = undirected ? `-${rel}-` : side === 'out' ? `-${rel}->` : `<-${rel}-`;
      const others = cat.labels.filter((l) => (side === 'out' ? r.to : r.from).includes(l.label));
      return fc.constantFrom(...others).map((other) => ({
        arrow,
        other,
        rel: many ? [] : [{ name: relVar, props: r.props }],
      }));
    });
}

/**
 * The first node and a relationship: matched, optional, a path of several hops, or a chain
 * of two relationships of different types (one relationship can bind both only when they
 * share a type, where kuzu and openCypher part).
 */
function withRelationship(cat: Catalogue, a: LabelInfo, node: string, r: RelInfo): fc.Arbitrary<Shape> {
  return fc.constantFrom('single', 'optional', 'paths', 'chain').chain((mode) =>
    step(cat, a.label, r, 'r', mode === 'paths').chain((first): fc.Arbitrary<Shape> => {
      const b = vars(first.other, 'b');
      const pattern = `${node}${first.arrow}(b:${first.other.label})`;
      if (mode === 'optional')
        return fc.constant({
          match: `MATCH ${node}`,
          optional: `OPTIONAL MATCH (a)${first.arrow}(b:${first.other.label})`,
          matched: [vars(a)],
          optionals: [b, ...first.rel],
        });
      const one = fc.constant<Shape>({
        match: `MATCH ${pattern}`,
        optional: undefined,
        matched: [vars(a), b, ...first.rel],
        optionals: [],
      });
      const next = relationshipsOf(cat, first.other.label).filter((s) => s.type !== r.type);
      if (mode !== 'chain' || next.length === 0) return one;
      return fc.constantFrom(...next).chain((s) =>
        step(cat, first.other.label, s, 's', false).map((second) => ({
          match: `MATCH ${pattern}${second.arrow}(c:${second.other.label})`,
          optional: undefined,
          matched: [vars(a), b, vars(second.other, 'c'), ...first.rel, ...second.rel],
          optionals: [],
        })),
      );
    }),
  );
}

// ——— WHERE ———

function whereOf(vs: Var[], most = 3): fc.Arbitrary<Text | undefined> {
  const props = vs.flatMap((v) => v.props.map((p) => ({ v: v.name, p })));
  if (props.length === 0) return fc.constant(undefined);
  const onValues = fc.constantFrom(...props).chain(({ v, p }) => predicateOn(v, p));
  const pairs = props.flatMap((x) =>
    props.filter((y) => x.v < y.v && x.p.type === y.p.type && x.p.type !== 'STRING[]').map((y) => [x, y] as const),
  );
  // Two variables' properties of one type compared (`a.state = b.state`).
  const between =
    pairs.length === 0
      ? onValues
      : fc
          .tuple(fc.constantFrom(...pairs), fc.constantFrom('=', '<>', '<', '>='))
          .map(([[x, y], op]): Text => [`${x.v}.\`${x.p.name}\` ${op} ${y.v}.\`${y.p.name}\``]);
  const predicate = fc.oneof({ arbitrary: onValues, weight: 4 }, { arbitrary: between, weight: 1 });
  const maybeNot = fc.tuple(fc.boolean(), predicate).map(([not, t]): Text => (not ? ['NOT (', ...t, ')'] : t));
  return fc.option(
    fc
      .tuple(fc.array(maybeNot, { minLength: 1, maxLength: most }), fc.array(fc.constantFrom(' AND ', ' OR ', ' XOR ')))
      .map(([preds, ops]) =>
        preds.flatMap((t, i): Text => (i === 0 ? ['(', ...t, ')'] : [ops[i] ?? ' AND ', '(', ...t, ')'])),
      ),
    { nil: undefined, freq: 4 },
  );
}

function predicateOn(v: string, p: PropInfo): fc.Arbitrary<Text> {
  const x = `${v}.\`${p.name}\``;
  const nullTest = fc.constantFrom<Text>([`${x} IS NULL`], [`${x} IS NOT NULL`]);
  if (p.values.length === 0) return nullTest;
  const value = fc.constantFrom(...p.values);
  // Repeats allowed: `IN ['a', 'a']` still matches a node once.
  const someValues = fc.array(value, { minLength: 1, maxLength: 4 });
  if (p.type === 'STRING[]')
    return fc.oneof(
      value.chain((item) => literalOrParam(item).map((t): Text => [...t, ` IN ${x}`])),
      fc.integer({ min: 0, max: 2 }).map((n): Text => [`size(${x}) > ${n}`]),
      nullTest,
    );
  if (p.type === 'BOOLEAN')
    return fc.oneof(fc.constantFrom<Text>([x], [`${x} = true`], [`${x} = false`], [`${x} <> true`]), nullTest);
  const compare = fc
    .tuple(fc.constantFrom('=', '<>', '<', '<=', '>', '>='), value)
    .chain(([op, val]) => literalOrParam(val).map((t): Text => [`${x} ${op} `, ...t]));
  const inList = someValues.map((vals): Text => [`${x} IN [${vals.map(literal).join(', ')}]`]);
  const arms: fc.Arbitrary<Text>[] = [compare, compare, inList, nullTest];
  const texts = (p.values as string[]).filter((s) => typeof s === 'string' && s.length > 0);
  if (p.type === 'STRING' && texts.length > 0) arms.push(textTest(x, texts));
  return fc.oneof(...arms);
}

/** STARTS WITH / ENDS WITH / CONTAINS a non-empty piece of a value the graph holds. */
function textTest(x: string, values: string[]): fc.Arbitrary<Text> {
  return fc
    .tuple(fc.constantFrom(...values), fc.nat(), fc.nat(), fc.constantFrom('STARTS', 'ENDS', 'CONTAINS'))
    .chain(([s, i, j, op]) => {
      const start = i % s.length;
      const end = start + 1 + (j % Math.min(8, s.length - start));
      const piece =
        op === 'STARTS'
          ? s.slice(0, end - start)
          : op === 'ENDS'
            ? s.slice(s.length - (end - start))
            : s.slice(start, end);
      return literalOrParam(piece).map((t): Text => [`${x} ${op === 'CONTAINS' ? 'CONTAINS' : `${op} WITH`} `, ...t]);
    });
}

function literalOrParam(v: unknown): fc.Arbitrary<Text> {
  return fc.boolean().map((asParam): Text => [asParam ? { param: v } : literal(v)]);
}

function literal(v: unknown): string {
  if (typeof v === 'string') return `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return String(v);
}

// ——— RETURN ———

interface Returned {
  text: Text;
  ordered: boolean;
  unorderedLists: boolean;
}

function returnOf(vs: Var[]): fc.Arbitrary<Returned> {
  const items = vs.flatMap((v) => v.props.map((p) => ({ expr: `${v.name}.\`${p.name}\``, p })));
  const scalars = items.filter((i) => i.p.type !== 'STRING[]');
  return fc.oneof(projection(items), aggregation(scalars));
}

function projection(items: { expr: string; p: PropInfo }[]): fc.Arbitrary<Returned> {
  return fc
    .record({
      cols: fc.subarray(items, { minLength: 1, maxLength: 3 }),
      distinct: fc.boolean(),
      order: fc.boolean(),
      skip: sometimes(fc.integer({ min: 1, max: 5 }), 1),
      limit: sometimes(fc.integer({ min: 1, max: 20 }), 2),
    })
    .map(({ cols, distinct, order, skip, limit }) => {
      const list = cols.map((c, i) => `${c.expr} AS c${i}`).join(', ');
      // Ordered by every column, rows that tie are equal: the order, and any SKIP or LIMIT cut, are the same in both.
      const ordered = order && cols.every((c) => c.p.type !== 'STRING[]');
      const tail = ordered
        ? page(
            cols.map((_, i) => `c${i}`),
            skip,
            limit,
          )
        : '';
      return { text: [`RETURN ${distinct ? 'DISTINCT ' : ''}${list}${tail}`], ordered, unorderedLists: false };
    });
}

/** The value in `weight` cases of 4, else undefined. */
function sometimes<T>(arb: fc.Arbitrary<T>, weight: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 - weight }, { arbitrary: arb, weight });
}

function page(columns: string[], skip: number | undefined, limit: number | undefined): string {
  return ` ORDER BY ${columns.join(', ')}${skip === undefined ? '' : ` SKIP ${skip}`}${limit === undefined ? '' : ` LIMIT ${limit}`}`;
}

function aggregation(scalars: { expr: string; p: PropInfo }[]): fc.Arbitrary<Returned> {
  return fc
    .record({
      keys: fc.subarray(scalars, { minLength: 0, maxLength: 2 }),
      aggs: fc.array(aggregate(scalars), { minLength: 1, maxLength: 3 }),
      having: sometimes(fc.integer({ min: 1, max: 4 }), 1),
      order: fc.boolean(),
      limit: sometimes(fc.integer({ min: 1, max: 10 }), 2),
    })
    .map(({ keys, aggs, having, order, limit }) => {
      const keyCols = keys.map((k, i) => `${k.expr} AS k${i}`);
      // DISTINCT aggregates last: kuzu 0.11 answers 0 or null for those after one when grouping.
      aggs.sort((x, y) => Number(x.distinct) - Number(y.distinct));
      const aggCols = aggs.map((a, i) => `${a.text} AS g${i}`);
      const names = [...keys.map((_, i) => `k${i}`), ...aggs.map((_, i) => `g${i}`)];
      // Grouping keys are unique per row: ordering by them is total.
      const ordered = order && keys.length > 0;
      const tail = ordered
        ? page(
            keys.map((_, i) => `k${i}`),
            undefined,
            limit,
          )
        : '';
      const unorderedLists = aggs.some((a) => a.collects);
      if (having === undefined)
        return { text: [`RETURN ${[...keyCols, ...aggCols].join(', ')}${tail}`], ordered, unorderedLists };
      const text = `WITH ${[...keyCols, 'count(*) AS n', ...aggCols].join(', ')} WHERE n >= ${having} RETURN ${[...names, 'n'].join(', ')}${tail}`;
      return { text: [text], ordered, unorderedLists };
    });
}

interface Aggregate {
  text: string;
  collects: boolean;
  distinct: boolean;
}

/**
 * One aggregate. sum() and collect() are wrapped in coalesce(): over no values openCypher
 * answers 0 and [], kuzu null, and the rest of the answer is what is being compared.
 */
function aggregate(items: { expr: string; p: PropInfo }[]): fc.Arbitrary<Aggregate> {
  const count = fc.constant({ text: 'count(*)', collects: false, distinct: false });
  if (items.length === 0) return count;
  return fc.oneof(
    { arbitrary: count, weight: 1 },
    {
      weight: 3,
      arbitrary: fc.constantFrom(...items).chain(({ expr, p }) => {
        const numeric = p.type === 'INT64' || p.type === 'DOUBLE';
        const fns = [
          'count',
          'countDistinct',
          'min',
          'max',
          'collect',
          'collectDistinct',
          ...(numeric ? ['sum', 'avg'] : []),
        ];
        return fc.constantFrom(...fns).map((fn): Aggregate => {
          switch (fn) {
            case 'countDistinct':
              return { text: `count(DISTINCT ${expr})`, collects: false, distinct: true };
            case 'collect':
              return { text: `coalesce(collect(${expr}), [])`, collects: true, distinct: false };
            case 'collectDistinct':
              return { text: `coalesce(collect(DISTINCT ${expr}), [])`, collects: true, distinct: true };
            case 'sum':
              return { text: `coalesce(sum(${expr}), 0)`, collects: false, distinct: false };
            default:
              return { text: `${fn}(${expr})`, collects: false, distinct: false };
          }
        });
      }),
    },
  );
}

/** The text, its parameters named $p0, $p1… in order. */
function assemble(text: Text): { query: string; parameters: Record<string, unknown> } {
  const parameters: Record<string, unknown> = {};
  const query = text
    .map((part) => {
      if (typeof part === 'string') return part;
      const name = `p${Object.keys(parameters).length}`;
      parameters[name] = part.param;
      return `$${name}`;
    })
    .join('');
  return { query, parameters };
}

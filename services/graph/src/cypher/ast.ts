/**
 * The read-only openCypher subset civicgraph runs, as the parser's tree is turned into it
 * (build-ast.ts). Everything outside it is refused there, naming the construct and where
 * it is; the executor (execute.ts) never meets anything else.
 */

/** Where a construct starts in the query text (1-based line and column). */
export interface Position {
  line: number;
  column: number;
}

export type Expr =
  | { kind: 'literal'; value: unknown; /** Written as a float (`2.0`, `1e3`), whatever its value. */ float?: true }
  | { kind: 'parameter'; name: string; at: Position }
  | { kind: 'variable'; name: string; at: Position }
  | { kind: 'property'; of: Expr; key: string; at: Position }
  | { kind: 'index'; of: Expr; index: Expr }
  | { kind: 'list'; items: Expr[] }
  | { kind: 'map'; entries: [string, Expr][] }
  | { kind: 'not'; arg: Expr }
  | { kind: 'logic'; op: 'and' | 'or' | 'xor'; args: Expr[] }
  | { kind: 'compare'; op: '=' | '<>' | '<' | '>' | '<=' | '>='; left: Expr; right: Expr }
  | { kind: 'arith'; op: '+' | '-' | '*' | '/' | '%' | '^'; left: Expr; right: Expr }
  | { kind: 'negate'; arg: Expr }
  | { kind: 'string'; op: 'starts' | 'ends' | 'contains'; left: Expr; right: Expr }
  | { kind: 'in'; left: Expr; right: Expr }
  | { kind: 'isNull'; arg: Expr; negated: boolean }
  | { kind: 'call'; name: string; args: Expr[]; at: Position }
  | { kind: 'aggregate'; name: AggregateName; arg: Expr | '*'; distinct: boolean; at: Position };

export const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max', 'collect'] as const;
export type AggregateName = (typeof AGGREGATES)[number];

export interface NodePattern {
  variable: string | undefined;
  labels: string[];
  properties: [string, Expr][];
  at: Position;
}

export interface RelPattern {
  variable: string | undefined;
  types: string[];
  direction: 'out' | 'in' | 'both';
  properties: [string, Expr][];
  /** Variable length: hop bounds (both inclusive); absent for a single hop. */
  hops: { min: number; max: number } | undefined;
  at: Position;
}

/** `(a)-[r]->(b)<-[s]-(c)`: nodes[i] and nodes[i+1] are joined by rels[i]. */
export interface PathPattern {
  nodes: NodePattern[];
  rels: RelPattern[];
}

export interface ReturnItem {
  expr: Expr;
  /** The column's name: its alias, else the expression's text. */
  name: string;
}

export interface SortItem {
  expr: Expr;
  descending: boolean;
}

/** RETURN and WITH share this shape (WITH may also filter its rows). */
export interface Projection {
  distinct: boolean;
  /** `*`: every variable in scope, then `items`. */
  star: boolean;
  items: ReturnItem[];
  order: SortItem[];
  skip: Expr | undefined;
  limit: Expr | undefined;
  at: Position;
}

export type Clause =
  | { kind: 'match'; optional: boolean; patterns: PathPattern[]; where: Expr | undefined; at: Position }
  | { kind: 'unwind'; expr: Expr; as: string; at: Position }
  | { kind: 'with'; projection: Projection; where: Expr | undefined; at: Position }
  | { kind: 'return'; projection: Projection; at: Position };

export interface Query {
  clauses: Clause[];
}

/** The clause words a budget or an error names. */
export function clauseName(c: Clause): string {
  if (c.kind === 'match') return c.optional ? 'OPTIONAL MATCH' : 'MATCH';
  return c.kind.toUpperCase();
}

/** `line 3, column 7`. */
export function where(at: Position): string {
  return `line ${at.line}, column ${at.column}`;
}

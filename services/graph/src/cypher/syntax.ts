import { createRequire } from 'node:module';
import { InvalidParameterError, QueryTooComplexError } from '@civicgraph/kit';

/**
 * The parse tree of a query, from Neo4j's Cypher grammar (the ANTLR parser of
 * `@neo4j-cypher/antlr4`, the one Neo4j's own editors use): no hand-written parser here.
 * Its CommonJS build is the one that loads in Node, hence `require`.
 */
const require = createRequire(import.meta.url);

interface Grammar {
  CypherLexer: new (input: unknown) => unknown;
  CypherParser: (new (tokens: unknown) => AntlrParser) & { ruleNames: string[] };
  antlr: AntlrRuntime;
}

let grammar: Grammar | undefined;

/**
 * The parser, loaded on the first query: building its ATN takes about 300 ms, which every
 * process importing the graph service (each CLI command) would otherwise pay at start.
 */
function loaded(): Grammar {
  grammar ??= {
    ...(require('@neo4j-cypher/antlr4') as Pick<Grammar, 'CypherLexer' | 'CypherParser'>),
    antlr: (require('@neo4j-cypher/antlr4-browser') as { default: AntlrRuntime }).default,
  };
  return grammar;
}

interface AntlrRuntime {
  InputStream: new (text: string) => unknown;
  CommonTokenStream: new (lexer: unknown) => unknown;
  atn: { PredictionMode: { SLL: number; LL: number } };
  error: { BailErrorStrategy: new () => object; DefaultErrorStrategy: new () => object };
}

interface AntlrParser {
  buildParseTrees: boolean;
  _interp: { predictionMode: number };
  _errHandler: object;
  removeErrorListeners(): void;
  addErrorListener(listener: object): void;
  cypher(): Tree;
}

/** A node of the parse tree: a rule (with children) or a token (with a symbol). */
export interface Tree {
  children?: Tree[] | null;
  ruleIndex?: number;
  symbol?: { text: string; line: number; column: number };
  start?: { line: number; column: number };
  getText(): string;
}

/** Deepest nesting of brackets a query may have: the parser recurses about fourteen calls per level. */
export const MAX_NESTING = 24;

/**
 * The query's parse tree; a syntax error is refused naming where it is. Parsed the two-stage
 * way ANTLR recommends: the fast SLL prediction first (milliseconds), and only a query it
 * cannot parse again with full LL, for the exact error. Full LL alone takes 100 ms on an
 * ordinary query and seconds on `NOT NOT NOT …`; nesting deeper than MAX_NESTING is refused
 * before either runs, as it would exhaust the stack.
 */
export function parseTree(query: string): Tree {
  refuseDeepNesting(query);
  try {
    const fast = parser(query);
    fast._interp.predictionMode = loaded().antlr.atn.PredictionMode.SLL;
    fast._errHandler = new (loaded().antlr.error.BailErrorStrategy)();
    fast.removeErrorListeners();
    return fast.cypher();
  } catch {
    // Not SLL-parseable (a syntax error, or a rare construct SLL cannot decide): full LL below.
  }
  const full = parser(query);
  const errors: string[] = [];
  full.removeErrorListeners();
  full.addErrorListener({
    syntaxError: (_r: unknown, _s: unknown, line: number, column: number, msg: string) =>
      errors.push(`line ${line}, column ${column + 1}: ${msg}`),
    reportAmbiguity: () => undefined,
    reportAttemptingFullContext: () => undefined,
    reportContextSensitivity: () => undefined,
  });
  const tree = full.cypher();
  if (errors.length > 0) throw new InvalidParameterError('query', `The query is not valid Cypher: ${errors[0]}.`);
  return tree;
}

function parser(query: string): AntlrParser {
  const { CypherLexer, CypherParser, antlr } = loaded();
  const p = new CypherParser(new antlr.CommonTokenStream(new CypherLexer(new antlr.InputStream(query))));
  p.buildParseTrees = true;
  return p;
}

/** Refuses brackets nested deeper than MAX_NESTING (outside strings, quoted names and comments), naming where. */
function refuseDeepNesting(query: string): void {
  let depth = 0;
  let line = 1;
  let column = 0;
  for (let i = 0; i < query.length; i++) {
    const ch = query[i]!;
    column++;
    if (ch === '\n') {
      line++;
      column = 0;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      // Skip the quoted text (backslash escapes in strings; a doubled backtick in names).
      for (i++; i < query.length && query[i] !== ch; i++) if (query[i] === '\\' && ch !== '`') i++;
    } else if (ch === '/' && query[i + 1] === '/') {
      while (i < query.length && query[i] !== '\n') i++;
      i--;
    } else if (ch === '/' && query[i + 1] === '*') {
      const end = query.indexOf('*/', i + 2);
      i = end < 0 ? query.length : end + 1;
    } else if (ch === '(' || ch === '[' || ch === '{') {
      if (++depth > MAX_NESTING)
        throw new QueryTooComplexError(
          `The query nests brackets more than ${MAX_NESTING} deep (line ${line}, column ${column}); flatten it.`,
          { field: 'query' },
        );
    } else if (ch === ')' || ch === ']' || ch === '}') {
      depth = Math.max(0, depth - 1);
    }
  }
}

/** The grammar rule a tree node is, or '' for a token. */
export function ruleOf(t: Tree): string {
  return t.ruleIndex === undefined || t.symbol !== undefined
    ? ''
    : (loaded().CypherParser.ruleNames[t.ruleIndex] ?? '');
}

/** A node's children without the whitespace tokens the grammar keeps. */
export function kids(t: Tree): Tree[] {
  return (t.children ?? []).filter((c) => c.symbol === undefined || c.symbol.text.trim() !== '');
}

/** The first child of a rule, or undefined. */
export function child(t: Tree, rule: string): Tree | undefined {
  return kids(t).find((c) => ruleOf(c) === rule);
}

/** Every child of a rule. */
export function children(t: Tree, rule: string): Tree[] {
  return kids(t).filter((c) => ruleOf(c) === rule);
}

/** The upper-cased words of a node's own tokens (keywords such as OPTIONAL, DISTINCT, DESC). */
export function words(t: Tree): string[] {
  return kids(t)
    .filter((c) => c.symbol !== undefined)
    .map((c) => c.symbol!.text.toUpperCase());
}

/** Where a node starts: 1-based line and column. */
export function positionOf(t: Tree): { line: number; column: number } {
  const s = t.symbol ?? t.start;
  return { line: s?.line ?? 1, column: (s?.column ?? 0) + 1 };
}

import { createRequire } from 'node:module';
import { InvalidParameterError } from '@civicgraph/kit';

/**
 * The parse tree of a query, from Neo4j's Cypher grammar (the ANTLR parser of
 * `@neo4j-cypher/antlr4`, the one Neo4j's own editors use): no hand-written parser here.
 * Its CommonJS build is the one that loads in Node, hence `require`.
 */
const require = createRequire(import.meta.url);
const { CypherLexer, CypherParser } = require('@neo4j-cypher/antlr4') as {
  CypherLexer: new (input: unknown) => unknown;
  CypherParser: (new (tokens: unknown) => AntlrParser) & { ruleNames: string[] };
};
const antlr = (require('@neo4j-cypher/antlr4-browser') as { default: AntlrRuntime }).default;

interface AntlrRuntime {
  InputStream: new (text: string) => unknown;
  CommonTokenStream: new (lexer: unknown) => unknown;
}

interface AntlrParser {
  buildParseTrees: boolean;
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

/** The query's parse tree; a syntax error is refused naming where it is. */
export function parseTree(query: string): Tree {
  const parser = new CypherParser(new antlr.CommonTokenStream(new CypherLexer(new antlr.InputStream(query))));
  parser.buildParseTrees = true;
  const errors: string[] = [];
  const listener = {
    syntaxError: (_r: unknown, _s: unknown, line: number, column: number, msg: string) =>
      errors.push(`line ${line}, column ${column + 1}: ${msg}`),
    reportAmbiguity: () => undefined,
    reportAttemptingFullContext: () => undefined,
    reportContextSensitivity: () => undefined,
  };
  parser.removeErrorListeners();
  parser.addErrorListener(listener);
  const tree = parser.cypher();
  if (errors.length > 0) throw new InvalidParameterError('query', `The query is not valid Cypher: ${errors[0]}.`);
  return tree;
}

/** The grammar rule a tree node is, or '' for a token. */
export function ruleOf(t: Tree): string {
  return t.ruleIndex === undefined || t.symbol !== undefined ? '' : (CypherParser.ruleNames[t.ruleIndex] ?? '');
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

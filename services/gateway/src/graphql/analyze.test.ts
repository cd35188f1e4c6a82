import { describe, expect, it } from 'vitest';
import { buildSchema, Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { analyzeOperation, DEFAULT_LIST_SIZE, MAX_WALKED_FIELDS } from './analyze.js';
import { fieldRules } from './field-rules.js';

const SDL = `
directive @entitlement(name: String!) on FIELD_DEFINITION
directive @listSize(assumedSize: Int!) on FIELD_DEFINITION
type Person { name: String! email: String @entitlement(name: "contact") }
type Candidacy { slug: ID! person: Person! tags: [String!]! sources: [Person!]! }
type Contest { slug: ID! candidacies: [Candidacy!]! @listSize(assumedSize: 10) }
type Query {
  ballot: [Contest!]! @listSize(assumedSize: 20) @entitlement(name: "geography")
  contest(slug: ID!): Contest
}`;
const schema = buildSchema(SDL);
const rules = fieldRules([SDL]);

function analyze(query: string, held: ('contact' | 'geography')[] = ['contact', 'geography']) {
  const doc = parse(query);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION);
  return analyzeOperation(schema, op, fragments, rules, new Set(held));
}

describe('fieldRules', () => {
  it('reads entitlements and list sizes by schema coordinate', () => {
    expect([...rules.entitlements]).toEqual([
      ['Person.email', 'contact'],
      ['Query.ballot', 'geography'],
    ]);
    expect([...rules.listSizes]).toEqual([
      ['Contest.candidacies', 10],
      ['Query.ballot', 20],
    ]);
  });

  it('refuses an entitlement the policy does not know', () => {
    expect(() => fieldRules(['type Query { a: Int @entitlement(name: "vip") }'])).toThrow(/Query.a/);
  });
});

describe('analyzeOperation', () => {
  it("multiplies a list field's selection by its expected size, leaves counting 1", () => {
    // ballot (1 + 20 × (slug 1 + candidacies (1 + 10 × (slug 1 + person (1 + name 1))))) = 1 + 20 × (1 + 1 + 10 × 3) = 641
    const a = analyze('{ ballot { slug candidacies { slug person { name } } } }');
    expect(a.cost).toBe(641);
    expect(a.depth).toBe(4);
    expect(a.deepestPath).toEqual(['ballot', 'candidacies', 'person', 'name']);
    expect(a.costliestPath).toEqual(['ballot', 'candidacies', 'person']);
  });

  it('assumes an undeclared object list holds the default size; a list of scalars is a leaf', () => {
    expect(analyze('{ contest(slug: "c") { candidacies { sources { name } } } }').cost).toBe(
      1 + (1 + 10 * (1 + DEFAULT_LIST_SIZE * 1)),
    );
    expect(analyze('{ contest(slug: "c") { candidacies { tags } } }').cost).toBe(1 + (1 + 10 * 1));
  });

  it('expands fragments and inline fragments, counting aliases', () => {
    const a = analyze(
      '{ a: contest(slug: "c") { ...C } b: contest(slug: "d") { ... on Contest { slug } } } fragment C on Contest { slug s2: slug }',
    );
    expect(a.aliases).toBe(3);
    expect(a.cost).toBe(3 + 2);
    expect(a.deepestPath).toEqual(['a', 'slug']);
  });

  it('notes every field gated by an entitlement the principal lacks, with its response path', () => {
    const query = '{ c: contest(slug: "x") { candidacies { person { mail: email } } } ballot { slug } }';
    expect(analyze(query, ['contact']).denied).toEqual([
      { coordinate: 'Query.ballot', entitlement: 'geography', path: ['ballot'] },
    ]);
    expect(analyze(query, []).denied).toEqual([
      { coordinate: 'Person.email', entitlement: 'contact', path: ['c', 'candidacies', 'person', 'mail'] },
      { coordinate: 'Query.ballot', entitlement: 'geography', path: ['ballot'] },
    ]);
    expect(analyze(query).denied).toEqual([]);
  });

  it('ends a fragment cycle and stops a fragment bomb at the walk limit', () => {
    const cycle = analyze(
      '{ ...A } fragment A on Query { contest(slug: "c") { slug } ...B } fragment B on Query { ...A }',
    );
    expect(cycle.truncated).toBe(false);
    const levels = 30;
    const bomb = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Query { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : '__typename'} }`,
    ).join('\n');
    const a = analyze(`{ ...F0 }\n${bomb}`);
    expect(a.truncated).toBe(true);
    expect(a.walked).toBe(MAX_WALKED_FIELDS);
  });
});

describe('introspection is costed by what it returns', () => {
  it('scores __schema as every type, field, argument and value of the schema, once per alias, and __typename as nothing', () => {
    const one = analyze('{ __schema { types { name } } }').cost;
    // Person 1+2, Candidacy 1+4, Contest 1+2, Query 1+2(+1 arg), the built-in scalars and introspection types, directives.
    expect(one).toBeGreaterThan(30);
    expect(analyze('{ a: __schema { types { name } } b: __schema { types { name } } }').cost).toBe(2 * one);
    expect(analyze('{ __typename }').cost).toBe(0);
  });

  it('scores __type by the type it names, or by the largest when the name is a variable', () => {
    expect(analyze('{ __type(name: "Person") { name } }').cost).toBe(3);
    expect(analyze('query($n: String!) { __type(name: $n) { name } }').cost).toBeGreaterThanOrEqual(5);
  });
});

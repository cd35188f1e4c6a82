import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../endpoints.js';
import { PROBLEM_TYPE_NAMES, problemStatus } from '../resources/problem.js';
import { COMPONENTS } from '../schema/components.js';
import { readParams } from '../schema/params.js';
import { buildOpenApi } from './build.js';
import { EXAMPLES } from './examples.js';
import { API_INFO } from './info.js';
import { COMMON_ERRORS, type Json } from './responses.js';
import { okContent, refName, schemaChecker } from './validate-schemas.js';

const doc = buildOpenApi(ENDPOINTS, COMPONENTS, API_INFO);
const check = schemaChecker(COMPONENTS);
const operation = (path: string) => (doc['paths'] as Record<string, { get: Json }>)[path]!.get;

/** Every `$ref` string anywhere in `value`. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsIn(v)));
}

/** Follows a local JSON pointer (`#/a/b`) in the document. */
function resolve(ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
}

describe('buildOpenApi', () => {
  it('produces a document a real OpenAPI 3.1 validator accepts', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc).toMatchObject({
      openapi: '3.1.0',
      jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
      servers: [{ url: '/' }],
    });
  });

  it('documents every endpoint with its own parameters, the version header, 200, 304 and its problems', () => {
    expect(Object.keys(doc['paths'] as Json)).toHaveLength(ENDPOINTS.length);
    for (const e of ENDPOINTS) {
      const op = operation(e.path);
      expect(op, e.path).toMatchObject({ operationId: e.operationId, tags: [e.tag], summary: e.summary });
      const params = op['parameters'] as Json[];
      expect(
        params.filter((p) => p['name'] !== undefined).map((p) => [p['name'], p['in'], p['required']]),
        e.path,
      ).toEqual(e.params.map((p) => [p.name, p.in, p.required]));
      expect(params).toContainEqual({ $ref: '#/components/parameters/CivicVersion' });
      const responses = op['responses'] as Json;
      const statuses = [...e.errors, ...COMMON_ERRORS].map((t) => String(problemStatus(t).status));
      expect(Object.keys(responses), e.path).toEqual(
        expect.arrayContaining(['200', '304', '401', '429', '503', ...statuses]),
      );
      expect(okContent(doc, e.path).type).toBe(e.contentType ?? 'application/json');
      expect(refName(okContent(doc, e.path).schema)).toBe(e.response);
    }
  });

  it('resolves every $ref in the document', () => {
    const refs = new Set(refsIn(doc));
    expect(refs.size).toBeGreaterThan(20);
    for (const ref of refs) {
      expect(ref.startsWith('#/'), ref).toBe(true);
      expect(resolve(ref), ref).toBeDefined();
    }
  });

  it('gives every endpoint a real 200 example that its response schema accepts', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(ENDPOINTS.map((e) => e.operationId).sort());
    for (const e of ENDPOINTS) {
      const { schema, example } = okContent(doc, e.path);
      expect(example, e.operationId).toBeDefined();
      expect(check(refName(schema), example), e.operationId).toEqual([]);
    }
  });

  it('rejects a body the schema does not describe (the checks can fail)', () => {
    const contest = EXAMPLES['getContest'] as Json;
    expect(check('Contest', { ...contest, surprise: 1 })).not.toEqual([]);
    expect(check('Contest', { ...contest, date: '2026-02-30x' })).not.toEqual([]);
    const { slug: _slug, ...withoutSlug } = contest;
    expect(check('Contest', withoutSlug)).not.toEqual([]);
  });

  it('gives parameter examples that readParams and the parameter schemas accept', () => {
    const withExamples = ENDPOINTS.flatMap((e) =>
      e.params.filter((p) => p.example !== undefined).map((p) => ({ id: `${e.operationId}.${p.name}`, p })),
    );
    const paramCheck = schemaChecker(Object.fromEntries(withExamples.map(({ id, p }) => [id, p.schema])));
    for (const { id, p } of withExamples) expect(paramCheck(id, p.example), id).toEqual([]);
    for (const e of ENDPOINTS) {
      const query: Record<string, string> = {};
      const path: Record<string, string> = {};
      for (const p of e.params) {
        if (p.required) expect(p.example, `${e.operationId}.${p.name}`).toBeDefined();
        if (p.example !== undefined) (p.in === 'path' ? path : query)[p.name] = String(p.example);
      }
      const parsed = readParams(e.params, query, path);
      for (const p of e.params)
        if (p.example !== undefined) expect(parsed[p.name], `${e.operationId}.${p.name}`).toEqual(p.example);
    }
  });

  it('documents each problem type once, with an example the Problem schema accepts', () => {
    const examples = (doc['components'] as { examples: Record<string, { value: unknown; description: string }> })
      .examples;
    expect(Object.keys(examples).sort()).toEqual([...PROBLEM_TYPE_NAMES].sort());
    for (const type of PROBLEM_TYPE_NAMES) {
      expect(check('Problem', examples[type]!.value), type).toEqual([]);
      expect(examples[type]!.value).toMatchObject({ type, status: problemStatus(type).status });
      const rows = (API_INFO.description.match(new RegExp(`^\\| \`${type}\` \\|`, 'gm')) ?? []).length;
      expect(rows, type).toBe(1);
    }
  });

  it('answers 429 and 503 with Retry-After, and problems as application/problem+json', () => {
    const responses = operation('/v1/ballot')['responses'] as Record<string, Json>;
    for (const status of ['429', '503']) expect(responses[status]!['headers']).toHaveProperty('Retry-After');
    expect(Object.keys(responses['403']!['content'] as Json)).toEqual(['application/problem+json']);
    expect(
      Object.keys(
        (responses['403']!['content'] as Record<string, Json>)['application/problem+json']!['examples'] as Json,
      ),
    ).toEqual(expect.arrayContaining(['entitlement_required', 'out_of_scope']));
  });
});

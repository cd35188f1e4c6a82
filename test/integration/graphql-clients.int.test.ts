import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '@graphql-codegen/cli';
import ts from 'typescript';
import { serverAudits } from 'graphql-http';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { graphql, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

let s: Stack;
let key: string;
let contactKey: string;

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  key = await s.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 100_000 });
  contactKey = await s.key({ entitlements: { contact: true, geography: true, states: [], tiers: [] } });
}, scaled(60_000));
afterAll(() => s?.stop());

/** fetch with the key added, as any client of the API sends it. */
const withKey =
  (k: string) =>
  (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${k}`);
    return fetch(input, { ...init, headers });
  };

describe('graphql-http server audits against /graphql', () => {
  // Listed before beforeAll runs: the URL and the key are read when each audit runs.
  for (const audit of serverAudits({
    url: () => `${s.url}/graphql`,
    fetchFn: (input: RequestInfo | URL, init?: RequestInit) => withKey(key)(input, init),
  })) {
    it(audit.name, async () => {
      const result = await audit.fn();
      if (audit.name.startsWith('MUST'))
        expect(result.status === 'ok' ? 'ok' : `${result.status}: ${'reason' in result ? result.reason : ''}`).toBe(
          'ok',
        );
      else expect(['ok', 'warn', 'notice']).toContain(result.status);
    });
  }
});

describe("introspection under the plans' budgets", () => {
  it('lets an Explore key run a full introspection, and refuses a document of 99 aliased ones as too costly', async () => {
    const explore = await s.key({ plan: Plan.PLAN_EXPLORE });
    const full = await graphql(s.url, explore, getIntrospectionQuery());
    expect(full.body.errors).toBeUndefined();
    const bomb = `{ ${Array.from({ length: 99 }, (_, i) => `s${i}: __schema { types { name fields { name args { name } } } }`).join(' ')} }`;
    const res = await graphql(s.url, explore, bomb);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ type: 'query_too_complex', limit: 'cost' });
  });
});

describe('standard clients', () => {
  async function introspect(k: string): Promise<IntrospectionQuery> {
    const res = await graphql(s.url, k, getIntrospectionQuery());
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  }

  it("rebuild the schema a key introspects with buildClientSchema: the spec's root fields and types, no contact fields without contact", async () => {
    const schema = buildClientSchema(await introspect(key));
    const query = schema.getQueryType()!.getFields();
    expect(query['contests']!.type.toString()).toBe('[Contest!]!');
    expect(query['contests']!.args.map((a) => `${a.name}: ${a.type}`)).toEqual(
      expect.arrayContaining(['state: StateCode!', 'level: Level', 'electionDate: Date']),
    );
    expect(query['candidacy']!.type.toString()).toBe('Candidacy');
    expect(query['districtsAtPoint']!.type.toString()).toBe('[Region!]!');
    expect(query['ballotAtPoint']!.args.map((a) => `${a.name}: ${a.type}`)).toEqual(
      expect.arrayContaining(['lat: Float!', 'lng: Float!', 'date: Date!']),
    );
    const candidacy = schema.getType('Candidacy')!.toConfig() as {
      fields: Record<string, { type: { toString(): string } }>;
    };
    const types = Object.fromEntries(Object.entries(candidacy.fields).map(([n, f]) => [n, String(f.type)]));
    expect(types).toMatchObject({
      slug: 'ID!',
      name: 'String!',
      person: 'Person!',
      contest: 'Contest!',
      party: 'Party',
      isIncumbent: 'Boolean',
      filingStatus: 'FilingStatus',
      ballotAccess: 'BallotAccess',
      campaignWebsite: 'URL',
      positions: '[Position!]!',
      provenance: '[Provenance!]!',
      confidence: 'Float!',
    });
    expect(types).not.toHaveProperty('campaignEmails');
    expect(printSchema(schema)).not.toContain('_regions');
    const withContact = buildClientSchema(await introspect(contactKey))
      .getType('Candidacy')!
      .toConfig() as { fields: Record<string, { type: unknown }> };
    expect(String(withContact.fields['campaignEmails']!.type)).toBe('[EmailAddress!]!');
    expect((schema.getType('Level')!.toConfig() as { values: Record<string, unknown> }).values).toHaveProperty(
      'COUNTY',
    );
  });
});

describe('a code generator', () => {
  it(
    'generates typed operations from the introspected schema with @graphql-codegen/cli, and they type-check',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'civic-codegen-'));
      try {
        const res = await graphql(s.url, key, getIntrospectionQuery());
        writeFileSync(join(dir, 'schema.json'), JSON.stringify(res.body.data));
        writeFileSync(
          join(dir, 'ballot.graphql'),
          `query Ballot($lat: Float!, $lng: Float!, $date: Date!) {
  ballotAtPoint(lat: $lat, lng: $lng, date: $date) {
    slug
    office { name level }
    region { name fips population }
    candidacies { person { name } party { name } isIncumbent confidence }
  }
}`,
        );
        const out = join(dir, 'generated.ts');
        await generate(
          {
            schema: join(dir, 'schema.json'),
            documents: join(dir, 'ballot.graphql'),
            silent: true,
            config: {
              scalars: { Date: 'string', StateCode: 'string', URL: 'string', EmailAddress: 'string', JSON: 'unknown' },
            },
            generates: { [out]: { plugins: ['typescript', 'typescript-operations'] } },
          },
          true,
        );
        const code = readFileSync(out, 'utf8');
        expect(code).toContain('export type BallotQuery');
        expect(code).toMatch(/ballotAtPoint: Array<\{[^]*candidacies: Array<\{[^]*confidence: number/);
        expect(code).toContain('export enum Level');
        expect(code).not.toContain('campaignEmails');
        const program = ts.createProgram([out], {
          strict: true,
          noEmit: true,
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          skipLibCheck: true,
        });
        expect(
          ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
        ).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    scaled(60_000),
  );
});

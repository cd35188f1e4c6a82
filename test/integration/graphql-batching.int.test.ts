import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, parse } from 'graphql';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { LATEST_VERSION } from '@civicgraph/kit';
import { graphqlContext } from '../../services/gateway/src/graphql/context.js';
import { graphqlSchemas } from '../../services/gateway/src/graphql/schema.js';
import { connectGeo } from '../../services/gateway/src/upstream/geo-client.js';
import { connectGraph, connectResults } from '../../services/gateway/src/upstream/graph-client.js';
import { BallotMemo } from '../../services/gateway/src/upstream/ballot-memo.js';
import { DENVER, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY, PAST_GENERAL } from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

/** Wraps an upstream client so every method call (one gRPC call each) is counted by name. */
function counted<T extends object>(client: T, calls: Map<string, number>, service: string): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || prop === 'close') return value;
      return (...args: unknown[]) => {
        const name = `${service}.${String(prop)}`;
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

const SPEC_BALLOT = parse(`query($lat: Float!, $lng: Float!, $date: Date!) {
  ballotAtPoint(lat: $lat, lng: $lng, date: $date) {
    slug office { name level } region { name fips population }
    candidacies { person { name } party { name } isIncumbent confidence contest { slug } }
  }
}`);

let s: Stack;
let principal: Principal;
const calls = new Map<string, number>();
let run: (document: ReturnType<typeof parse>, variables: Record<string, unknown>) => Promise<any>;
const closers: (() => void)[] = [];

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  principal = await s.auth.keys.authenticate(await s.key());
  const geo = connectGeo(s.geo.address, scaled(2_000));
  const graph = connectGraph(s.graph.address, scaled(2_000), new BallotMemo());
  const results = connectResults(s.resultsAddress, scaled(2_000));
  closers.push(
    () => geo.close(),
    () => graph.close(),
    () => results.close(),
  );
  const cGeo = counted(geo, calls, 'geo');
  const cGraph = counted(graph, calls, 'graph');
  const variants = graphqlSchemas({ geo: cGeo, graph: cGraph, results: counted(results, calls, 'results') });
  run = (document, variableValues) =>
    Promise.resolve(
      execute({
        schema: variants.for(principal),
        document,
        variableValues,
        contextValue: graphqlContext(principal, LATEST_VERSION),
      }),
    );
}, scaled(60_000));
afterAll(async () => {
  for (const close of closers) close();
  await s?.stop();
});

describe('GraphQL fetching', () => {
  it("answers the spec's ballot with three upstream calls, however many contests and candidacies it holds", async () => {
    calls.clear();
    const res = await run(SPEC_BALLOT, { ...DENVER, date: PAST_GENERAL });
    expect(res.errors).toBeUndefined();
    const contests = res.data.ballotAtPoint;
    const candidacies = contests.flatMap((c: any) => c.candidacies);
    expect(contests.length).toBeGreaterThan(2);
    expect(candidacies.length).toBeGreaterThan(contests.length);
    // One point lookup, one ballot, one merge of every contest's region with its geo fields.
    expect(Object.fromEntries(calls)).toEqual({ 'geo.districtsAtPoint': 1, 'graph.ballot': 1, 'geo.getRegions': 1 });
    for (const c of contests) for (const x of c.candidacies) expect(x.contest.slug).toBe(c.slug);
  });

  it("fetches a listed contest's candidacies once per contest and merges all their results in one delegation", async () => {
    calls.clear();
    const res = await run(
      parse(
        `{ contests(state: "CO", electionDate: "${PAST_GENERAL}") { slug candidacies { slug } results { certified } again: candidacies { slug } } }`,
      ),
      {},
    );
    expect(res.errors).toBeUndefined();
    const n = res.data.contests.length;
    expect(n).toBeGreaterThan(1);
    // The results service answers one contest per call; the graph one page of contests per call.
    expect(Object.fromEntries(calls)).toEqual({
      'graph.listContests': 1,
      'graph.getContest': n,
      'results.contestResults': n,
    });
  });
});

// Orchestrates the GraphQL benchmark: the demo graph and the point sets (rest/main.mjs's
// prepare, in a child), the stack and the bare express peer in processes of their own
// (geo/http.mjs), saturated rounds of the GraphQL ballot, the REST ballot and the peer,
// paced rounds at the target rate, the CPU of refused documents, then the report.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, medianRun, PATH as BARE_PATH } from '../geo/http.mjs';
import { nextGeneral, withDemoStack } from '../rest/main.mjs';
import { BALLOT_QUERY, config, TARGETS } from './config.mjs';
import { measureNeighbour } from './neighbour.mjs';
import { measureRefusals } from './refusals.mjs';
import { writeGraphqlSection } from './report.mjs';

const started = performance.now();
const progress = (msg) =>
  process.stderr.write(`[bench:graphql ${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}\n`);

/** Checks the GraphQL ballot answers contests at a point, so the load measures real answers. */
async function probeBallot(url, key, date) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: BALLOT_QUERY, variables: { lat: 39.7392, lng: -104.9903, date } }),
  });
  const body = await res.json();
  const contests = body.data?.ballotAtPoint;
  if (res.status !== 200 || !(contests?.length > 0))
    throw new Error(`probe: the Denver ballot over GraphQL: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return {
    contests: contests.length,
    candidacies: contests.reduce((n, c) => n + c.candidacies.length, 0),
    cost: body.extensions?.cost,
    bytes: JSON.stringify(body).length,
  };
}

export async function main() {
  return withDemoStack(
    'graphql',
    { points: config.points, cpuPoints: 10, rounds: config.rounds, coldPoints: config.rate * config.seconds },
    progress,
    bench,
    { demoCache: config.demoCache },
  );
}

async function bench(stack, bare, prep, work) {
  const date = await nextGeneral(stack.url, stack.key);
  const queries = join(work, 'queries.txt');
  writeFileSync(queries, `${prep.queries.main.map((q) => `${q}&date=${date}`).join('\n')}\n`);
  const probe = await probeBallot(stack.url, stack.key, date);
  progress(
    `ballot date ${date}; Denver over GraphQL: ${probe.contests} contests, ${probe.candidacies} candidacies, cost ${probe.cost?.requested}`,
  );
  const targets = [
    {
      id: 'graphql',
      name: "civicgraph `POST /graphql` ballotAtPoint, the spec's selection (one process)",
      url: stack.url,
      key: stack.key,
      path: '/v1/ballot',
      graphql: BALLOT_QUERY,
      probe: stack.probe,
    },
    {
      id: 'rest',
      name: 'civicgraph `GET /v1/ballot` (same stack, same points)',
      url: stack.url,
      key: stack.key,
      path: '/v1/ballot',
      probe: stack.probe,
    },
    {
      id: 'bare',
      name: `bare express 5 (fixed ${bare.bytes} B JSON)`,
      url: bare.url,
      key: undefined,
      path: BARE_PATH,
      probe: bare.probe,
    },
  ];
  const base = { queries, connections: config.connections, duration: config.seconds };
  const limit = (s) => (s + 30) * 1000;
  const target = (t) => ({
    ...base,
    url: t.url,
    key: t.key,
    path: t.path,
    ...(t.graphql === undefined ? {} : { graphql: t.graphql }),
  });
  for (const t of targets) {
    t.saturatedRounds = [];
    t.pacedRounds = [];
    if (config.warmup > 0)
      await load({ ...target(t), duration: config.warmup, seed: 99 }, limit(config.warmup), t.probe);
  }
  for (let round = 1; round <= config.rounds; round++) {
    for (const t of targets) {
      progress(`saturated round ${round}/${config.rounds}: ${t.id}`);
      t.saturatedRounds.push(await load({ ...target(t), seed: 7 + round }, limit(config.seconds), t.probe));
    }
  }
  for (let round = 1; round <= config.rounds; round++) {
    for (const t of targets.slice(0, 2)) {
      progress(`paced round ${round}/${config.rounds}: ${t.id} at ${config.rate} req/s`);
      t.pacedRounds.push(
        await load(
          { ...target(t), mode: 'paced', rate: config.rate, seed: 20 + round },
          limit(config.seconds + 15),
          t.probe,
        ),
      );
    }
  }
  const gql = targets[0];
  gql.coldRounds = [];
  for (let round = 1; round <= config.rounds; round++) {
    const cold = join(work, `cold-${round}.txt`);
    writeFileSync(cold, `${prep.queries.cold[round - 1].map((q) => `${q}&date=${date}`).join('\n')}\n`);
    progress(`paced round ${round}/${config.rounds} on points never asked before: graphql at ${config.rate} req/s`);
    gql.coldRounds.push(
      await load(
        { ...target(gql), queries: cold, sequential: true, mode: 'paced', rate: config.rate, seed: 40 + round },
        limit(config.seconds + 15),
        gql.probe,
      ),
    );
  }
  gql.cold = medianRun(gql.coldRounds, 'p99ms');
  for (const t of targets) {
    t.saturated = medianRun(t.saturatedRounds, 'rps');
    if (t.pacedRounds.length > 0) t.paced = medianRun(t.pacedRounds, 'p99ms');
  }
  const refusals = await measureRefusals(
    { url: stack.url, key: stack.key, probe: stack.probe, date, n: config.refusals, quietMs: config.quietMs },
    progress,
  );
  const neighbour = await measureNeighbour(
    {
      url: stack.url,
      hostileKey: stack.neighbourKey,
      victim: { ...target(targets[1]), mode: 'paced', rate: config.rate },
      rounds: config.rounds,
      limitMs: limit(config.seconds + 15),
      probe: stack.probe,
    },
    progress,
  );
  for (const t of targets) delete t.probe;
  const run = {
    config,
    targets: TARGETS,
    date,
    demo: prep.demo,
    probe,
    servers: targets,
    refusals,
    neighbour,
    seconds: (performance.now() - started) / 1000,
  };
  writeGraphqlSection(config.output, run);
  progress(`wrote ${config.output}`);
  return run;
}

// Orchestrates the GraphQL benchmark: the demo graph and the point sets (rest/main.mjs's
// prepare, in a child), the stack and the bare express peer in processes of their own
// (geo/http.mjs), saturated rounds of the GraphQL ballot, the REST ballot and the peer,
// paced rounds at the target rate, the CPU of refused documents, then the report.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, medianRun, PATH as BARE_PATH } from '../geo/http.mjs';
import { neverAskedRounds, nextGeneral, withDemoStack } from '../rest/main.mjs';
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
    // a set of never-asked points per round for each topology
    {
      points: config.points,
      cpuPoints: 10,
      rounds: config.rounds,
      coldPoints: config.rate * config.seconds,
      coldSets: 2 * config.rounds,
    },
    progress,
    bench,
    { demoCache: config.demoCache, deployed: true },
  );
}

async function bench(stack, bare, prep, work, _raw, deployed) {
  const date = await nextGeneral(stack.url, stack.key);
  const dated = (qs) => qs.map((q) => `${q}&date=${date}`);
  const queries = join(work, 'queries.txt');
  writeFileSync(queries, `${dated(prep.queries.main).join('\n')}\n`);
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
    {
      id: 'graphql-deployed',
      name: "civicgraph `POST /graphql` ballotAtPoint, the spec's selection (separate processes, as deployed)",
      url: deployed.url,
      key: deployed.key,
      path: '/v1/ballot',
      graphql: BALLOT_QUERY,
      probe: deployed.probe,
    },
    {
      id: 'rest-deployed',
      name: 'civicgraph `GET /v1/ballot` (separate processes, as deployed, same points)',
      url: deployed.url,
      key: deployed.key,
      path: '/v1/ballot',
      probe: deployed.probe,
    },
  ];
  const byId = (id) => targets.find((t) => t.id === id);
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
    for (const t of targets.filter((x) => x.id !== 'bare')) {
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
  await neverAskedRounds(
    [byId('graphql'), byId('graphql-deployed')],
    { ...config, sets: prep.queries.cold.map(dated), work, request: target, limitMs: limit(config.seconds + 15) },
    progress,
  );
  for (const t of targets) {
    t.saturated = medianRun(t.saturatedRounds, 'rps');
    if (t.pacedRounds.length > 0) t.paced = medianRun(t.pacedRounds, 'p99ms');
  }
  const refusals = await measureRefusals(
    { url: stack.url, key: stack.key, probe: stack.probe, date, n: config.refusals, quietMs: config.quietMs },
    progress,
  );
  const neighbourOf = (server, victim) =>
    measureNeighbour(
      {
        url: server.url,
        hostileKey: server.neighbourKey,
        victim: { ...target(victim), mode: 'paced', rate: config.rate },
        rounds: config.rounds,
        limitMs: limit(config.seconds + 15),
        probe: server.probe,
      },
      progress,
    );
  const neighbour = await neighbourOf(stack, byId('rest'));
  const neighbourDeployed = await neighbourOf(deployed, byId('rest-deployed'));
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
    neighbourDeployed,
    seconds: (performance.now() - started) / 1000,
  };
  writeGraphqlSection(config.output, run);
  progress(`wrote ${config.output}`);
  return run;
}

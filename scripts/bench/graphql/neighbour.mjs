// A hostile neighbour: a self-serve key (Build, 600 requests a minute) sending the heaviest
// GraphQL documents its plan admits (30 full introspections, cost ~9,200 of its 10,000,
// under fresh alias names so no answer is ever reused; 4 in flight, past its rate limit too)
// while another key's REST ballot runs paced at the target rate. The other key's p99 with
// the flood beside its p99 alone, what the flood was answered, and the stack's peak RSS.
import { load, medianRun } from '../geo/http.mjs';

const COPIES = 30;
const INTROSPECTION =
  '__schema { types { name kind fields { name args { name } type { name kind ofType { name kind } } } } }';

/** Sends fresh heavy documents, `concurrency` at a time, until `stop()`; resolves with what was answered. */
function flood(url, key, concurrency) {
  let running = true;
  let round = 0;
  const answers = new Map();
  let bytes = 0;
  const workers = Array.from({ length: concurrency }, async () => {
    while (running) {
      const r = ++round;
      const query = `{ ${Array.from({ length: COPIES }, (_, i) => `r${r}x${i}: ${INTROSPECTION}`).join(' ')} }`;
      // A request that fails outright is counted, not thrown: nothing awaits the workers until stop().
      const k = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query }),
      }).then(
        async (res) => {
          bytes += (await res.text()).length;
          return String(res.status);
        },
        () => 'error',
      );
      answers.set(k, (answers.get(k) ?? 0) + 1);
    }
  });
  return async () => {
    running = false;
    await Promise.all(workers);
    return { requests: round, answers: Object.fromEntries(answers), megabytes: bytes / 2 ** 20 };
  };
}

/** Victim p99 alone and beside the flood, `rounds` of each interleaved; medians by p99. */
export async function measureNeighbour({ url, hostileKey, victim, rounds, limitMs, probe }, progress) {
  const alone = [];
  const flooded = [];
  const floods = [];
  for (let round = 1; round <= rounds; round++) {
    progress(`neighbour round ${round}/${rounds}: the ballot alone`);
    alone.push(await load({ ...victim, seed: 60 + round }, limitMs, probe));
    progress(`neighbour round ${round}/${rounds}: the ballot beside the flood`);
    const stop = flood(url, hostileKey, 4);
    flooded.push(await load({ ...victim, seed: 60 + round }, limitMs, probe));
    floods.push(await stop());
  }
  const a = medianRun(alone, 'p99ms');
  const f = medianRun(flooded, 'p99ms');
  return { alone: a, flooded: f, aloneRounds: alone, floodedRounds: flooded, floods, ratio: f.p99ms / a.p99ms };
}

// The server CPU of each kind of document /graphql refuses (the issue's bad inputs), read
// by the stack's probe around a closed loop of identical requests from this process (whose
// own CPU is not counted: the server is another process), less the server's idle CPU over
// the same wall time. A valid `{ __typename }` is measured the same way as the floor of
// any operation through the stack.

import { collect, idle } from '../rest/cpu.mjs';

/** The bad inputs of the issue, each a JSON request body. */
export function refusedBodies(date) {
  const deep = `{ candidacy(slug: "candidacy:x") { ${'contest { candidacies { '.repeat(50)}slug${' } }'.repeat(50)} } }`;
  const aliases = `{ ${Array.from({ length: 1_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
  const long = `{ __typename }${' '.repeat(15_001 - '{ __typename }'.length)}`;
  const bomb = `{ ...F0 }\n${Array.from({ length: 40 }, (_, i) => `fragment F${i} on Query { ${i + 1 < 40 ? `...F${i + 1} ...F${i + 1}` : '__typename'} }`).join('\n')}`;
  const ballot =
    'query($lat: Float!, $lng: Float!, $date: Date!) { ballotAtPoint(lat: $lat, lng: $lng, date: $date) { slug } }';
  return [
    { name: 'depth 100', expect: 'query_too_complex', body: JSON.stringify({ query: deep }) },
    { name: '1,000 aliases', expect: 'query_too_complex', body: JSON.stringify({ query: aliases }) },
    { name: '15,001-character document', expect: 'query_too_complex', body: JSON.stringify({ query: long }) },
    {
      name: 'fragment bomb (40 levels, 2^40 expansions)',
      expect: 'query_too_complex',
      body: JSON.stringify({ query: bomb }),
    },
    {
      name: 'variables of the wrong type',
      expect: 'invalid_parameter',
      body: JSON.stringify({ query: ballot, variables: { lat: 'forty', lng: -105, date } }),
    },
    {
      name: 'JSON array batch of 1,000 operations',
      expect: 'invalid_parameter',
      body: JSON.stringify(Array.from({ length: 1_000 }, () => ({ query: '{ __typename }' }))),
    },
  ];
}

async function send(url, key, body) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      Accept: 'application/graphql-response+json',
    },
    body,
  });
  const json = await res.json();
  return { status: res.status, type: json.errors?.[0]?.extensions?.type };
}

/** `n` requests with `body`, `concurrency` at a time; the statuses and error types seen. */
async function loop(url, key, body, n, concurrency) {
  const seen = new Map();
  let left = n;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) {
        const r = await send(url, key, body);
        const k = `${r.status} ${r.type ?? 'ok'}`;
        seen.set(k, (seen.get(k) ?? 0) + 1);
      }
    }),
  );
  return Object.fromEntries(seen);
}

/** Per kind: µs of server CPU per request (idle subtracted) and what the server answered. */
export async function measureRefusals({ url, key, probe, date, n, concurrency = 4, quietMs = 500 }, progress) {
  const kinds = [
    ...refusedBodies(date),
    { name: 'valid `{ __typename }` (reference)', expect: 'ok', body: JSON.stringify({ query: '{ __typename }' }) },
  ];
  const rows = [];
  for (const kind of kinds) {
    progress(`refusals: ${kind.name}`);
    await loop(url, key, kind.body, Math.min(50, n), concurrency); // warm-up: parsed-document cache, JIT
    const base = await idle(probe, quietMs, quietMs);
    await collect(probe, quietMs);
    const c0 = await probe.cpu();
    const t0 = performance.now();
    const answers = await loop(url, key, kind.body, n, concurrency);
    const c1 = await probe.cpu();
    const wallMs = performance.now() - t0;
    const cpuUs =
      Math.max(0, c1.user - c0.user + c1.system - c0.system - (base.userUsPerMs + base.systemUsPerMs) * wallMs) / n;
    rows.push({
      name: kind.name,
      expect: kind.expect,
      bytes: Buffer.byteLength(kind.body),
      cpuUs,
      answers,
      ok: Object.keys(answers).length === 1 && Object.keys(answers)[0].endsWith(kind.expect),
    });
  }
  return rows;
}

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_LOOKUPS_PER_MINUTE } from '@civicgraph/gateway';
import { get, startStack, type Stack } from '../harness/stack.js';
import { DEMO_REGIONS as REGIONS, DEMO_TODAY as TODAY } from '../harness/demo.js';
import { scaled } from '@civicgraph/kit/testing';

// Made-up keys from one address: each costs an auth lookup only while the address has
// lookups left this minute (KEY_LOOKUPS_PER_MINUTE); after that the gateway answers 429 by itself.
const WINDOW_MS = 60_000;
let s: Stack;
let key: string;

beforeAll(async () => {
  s = await startStack({ demo: { regions: REGIONS, today: TODAY } });
  key = await s.key();
}, scaled(60_000));
afterAll(() => s?.stop());

describe('a flood of made-up keys from one address', () => {
  it(
    'is refused 401 up to the anonymous allowance, then 429 with Retry-After, and a key in use keeps working',
    { timeout: scaled(90_000) },
    async () => {
      const path = `${s.url}/v1/meta/layers`;
      // The allowance is a fixed one-minute window: a flood that crosses into the next minute
      // gets a fresh allowance there, so it starts at a minute's beginning when little is left
      // of the current one (the flood takes a second or two; scaled time on a loaded machine).
      const left = WINDOW_MS - (Date.now() % WINDOW_MS);
      if (left < scaled(20_000)) await new Promise((resolve) => setTimeout(resolve, left + 100));
      expect((await get(path, key)).status).toBe(200);
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<typeof get>> | undefined;
      for (let i = 0; i < KEY_LOOKUPS_PER_MINUTE + 30; i += 1) {
        const res = await get(path, `cg_test_${randomBytes(30).toString('base64url').slice(0, 40)}`);
        statuses.push(res.status);
        if (res.status === 429) limited ??= res;
      }
      const refused = statuses.filter((x) => x === 401).length;
      expect(refused).toBeGreaterThan(KEY_LOOKUPS_PER_MINUTE / 2);
      expect(refused).toBeLessThanOrEqual(KEY_LOOKUPS_PER_MINUTE - 1); // the key confirmed first took one lookup
      expect(statuses.slice(-10)).toEqual(Array(10).fill(429));
      expect(statuses.every((x) => x === 401 || x === 429)).toBe(true);
      expect(limited!.body).toMatchObject({ type: 'rate_limited', status: 429 });
      expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
      // The key confirmed before the flood is not an unknown key.
      expect((await get(path, key)).status).toBe(200);
    },
  );
});

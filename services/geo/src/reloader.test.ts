import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@civicgraph/kit';
import { scaled } from '@civicgraph/kit/testing';
import { Reloader } from './reloader.js';
import type { BoundaryStore } from './store/boundary-store.js';

/** A store whose generation the test moves, as an import into it would. */
function storeAt(generation: { value: number }): BoundaryStore {
  return { generation: () => generation.value } as unknown as BoundaryStore;
}

const log = createLogger('geo', 'silent');
let reloader: Reloader<number> | undefined;
afterEach(async () => {
  await reloader?.stop();
  reloader = undefined;
});

describe('Reloader', () => {
  it('reloads when the store moves, and a request during a reload runs once after it', async () => {
    const generation = { value: 1 };
    let reloads = 0;
    reloader = new Reloader(async () => ++reloads, storeAt(generation), log);
    reloader.watch(5);
    generation.value = 2;
    await vi.waitFor(() => expect(reloads).toBe(1), { timeout: scaled(5_000), interval: 5 });
    const [a, b, c] = [reloader.request(), reloader.request(), reloader.request()];
    expect(await Promise.all([a, b, c])).toEqual([2, 3, 3]);
  });

  it('leaves a held change to the next request, without the watch reloading it', async () => {
    const generation = { value: 1 };
    let reloads = 0;
    reloader = new Reloader(async () => ++reloads, storeAt(generation), log, 60_000);
    reloader.watch(5);
    await reloader.importing(async () => void (generation.value = 2), true);
    expect(reloader.holding()).toBe(true);
    // Twenty polls: a held change is not one the watch reloads.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reloads).toBe(0);
    await reloader.request();
    expect(reloads).toBe(1);
    expect(reloader.holding()).toBe(false);
  });

  it('serves a held change on its own once the hold has run out', async () => {
    const generation = { value: 1 };
    let now = 0;
    let reloads = 0;
    reloader = new Reloader(
      async () => ++reloads,
      storeAt(generation),
      log,
      60_000,
      () => now,
    );
    reloader.watch(5);
    await reloader.importing(async () => void (generation.value = 2), true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reloads).toBe(0);
    now = 60_000;
    await vi.waitFor(() => expect(reloads).toBe(1), { timeout: scaled(5_000), interval: 5 });
    expect(reloader.holding()).toBe(false);
  });

  it('an import that waits answers once the index serves it, the watch paused while it runs', async () => {
    const generation = { value: 1 };
    let reloads = 0;
    reloader = new Reloader(async () => ++reloads, storeAt(generation), log, 60_000);
    reloader.watch(5);
    const answer = await reloader.importing(async () => {
      generation.value = 2;
      // Ten polls between the commit and the answer: none starts a reload of its own.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(reloads).toBe(0);
      return 'stored';
    }, false);
    expect(answer).toBe('stored');
    expect(reloads).toBe(1);
  });

  it('a change stored after a hold is reloaded by the watch as usual', async () => {
    const generation = { value: 1 };
    let reloads = 0;
    reloader = new Reloader(async () => ++reloads, storeAt(generation), log, 60_000);
    reloader.watch(5);
    await reloader.importing(async () => void (generation.value = 2), true);
    generation.value = 3;
    await vi.waitFor(() => expect(reloads).toBe(1), { timeout: scaled(5_000), interval: 5 });
  });
});

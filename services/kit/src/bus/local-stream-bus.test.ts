import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runTsModule } from '../testing/run-ts-module.js';
import { makeEvent, type CivicEvent } from './catalogue.js';
import { describeEventBusContract } from '../testing/event-bus.contract.js';
import { LocalStreamBus } from './local-stream-bus.js';
import { scaled } from '../testing/time-scale.js';

const folders: string[] = [];
const folder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'civic-stream-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describeEventBusContract('local stream (LMDB)', () => LocalStreamBus.open({ path: folder() }));

const WAIT = { timeout: scaled(15_000), interval: 10 };
const event = (): CivicEvent =>
  makeEvent({ env: 'streamtest', kind: 'region', verb: 'updated', slugs: ['us-ca'], version: 'v1' });
const MODULE = JSON.stringify(fileURLToPath(new URL('./local-stream-bus.ts', import.meta.url)));
const CATALOGUE = JSON.stringify(fileURLToPath(new URL('./catalogue.ts', import.meta.url)));

describe('LocalStreamBus on disk', () => {
  let path: string;
  let bus: LocalStreamBus | undefined;
  beforeEach(() => {
    path = folder();
  });
  afterEach(async () => {
    await bus?.close();
    bus = undefined;
  });

  test('a durable consumer resumes after the bus is reopened, from the first event it had not handled', async () => {
    bus = await LocalStreamBus.open({ path });
    const first: string[] = [];
    const sub = await bus.subscribe('civic.streamtest.>', (e) => void first.push(e.id), { durable: 'hooks' });
    const sent = Array.from({ length: 6 }, event);
    for (const e of sent.slice(0, 2)) await bus.publish(e);
    await expect.poll(() => first, WAIT).toHaveLength(2);
    await sub.unsubscribe();
    for (const e of sent.slice(2)) await bus.publish(e);
    await bus.close();

    bus = await LocalStreamBus.open({ path });
    const second: string[] = [];
    await bus.subscribe('civic.streamtest.>', (e) => void second.push(e.id), { durable: 'hooks' });
    await expect.poll(() => second, WAIT).toEqual(sent.slice(2).map((e) => e.id));
  });

  test('an event stored by a release before the typed envelope (the event object, its node as JSON text) is delivered typed', async () => {
    bus = await LocalStreamBus.open({ path });
    await (await bus.subscribe('civic.streamtest.>', () => undefined, { durable: 'hooks' })).unsubscribe();
    await bus.close();
    const legacy = {
      ...event(),
      changes: [{ field: 'name', beforeJson: '"Calif."', afterJson: '"California"' }],
      nodeJson: JSON.stringify({
        slug: 'region:ca',
        kind: 'region',
        state: 'ca',
        tier: '',
        rev: 2,
        updatedAt: '2026-11-01T00:00:00.000Z',
        data: { name: 'California' },
      }),
    };
    // Written as the earlier release's LocalStreamBus wrote it: `{ at, event }` at the next sequence.
    const root = open({ path, overlappingSync: false });
    const events = root.openDB('events', { encoding: 'msgpack' });
    const meta = root.openDB('meta', { encoding: 'msgpack' });
    const seq = ((meta.get('last') as number | undefined) ?? 0) + 1;
    await events.put(seq, { at: Date.now(), event: legacy });
    await meta.put('last', seq);
    await root.close();

    bus = await LocalStreamBus.open({ path });
    const got: CivicEvent[] = [];
    await bus.subscribe('civic.streamtest.>', (e) => void got.push(e), { durable: 'hooks' });
    await expect.poll(() => got, WAIT).toHaveLength(1);
    expect(got[0]).toMatchObject({
      id: legacy.id,
      changes: [{ field: 'name', before: 'Calif.', after: 'California' }],
      node: { slug: 'region:ca', rev: 2, data: { name: 'California' } },
    });
    expect(got[0]).not.toHaveProperty('nodeJson');
  });

  test('events every position has passed are discarded; one a durable consumer has not read is kept', async () => {
    bus = await LocalStreamBus.open({ path, pruneEveryMs: 3_600_000 });
    const got: string[] = [];
    const live = await bus.subscribe('civic.streamtest.>', (e) => void got.push(e.id));
    for (let i = 0; i < 5; i++) await bus.publish(event());
    await expect.poll(() => got, WAIT).toHaveLength(5);
    await bus.prune();
    expect(bus.storedCount()).toBe(0);

    const durable = await bus.subscribe('civic.streamtest.>', () => {}, { durable: 'hooks' });
    await durable.unsubscribe();
    await bus.publish(event());
    await expect.poll(() => got, WAIT).toHaveLength(6);
    await bus.prune();
    expect(bus.storedCount()).toBe(1);
    await live.unsubscribe();
  });

  test('an event older than maxAgeMs is discarded even when unread', async () => {
    let now = 1_000_000;
    bus = await LocalStreamBus.open({ path, maxAgeMs: 1000, pruneEveryMs: 3_600_000, now: () => now });
    const durable = await bus.subscribe('civic.streamtest.>', () => {}, { durable: 'hooks' });
    await durable.unsubscribe();
    await bus.publish(event());
    now += 999;
    await bus.prune();
    expect(bus.storedCount()).toBe(1);
    now += 1;
    await bus.prune();
    expect(bus.storedCount()).toBe(0);
  });

  test('a process killed (SIGKILL) right after publish resolved loses nothing: the durable consumer gets every event', async () => {
    bus = await LocalStreamBus.open({ path });
    await (await bus.subscribe('civic.streamtest.>', () => {}, { durable: 'hooks' })).unsubscribe();
    await bus.close();
    bus = undefined;
    const { stdout } = await runTsModule(
      `
      const { LocalStreamBus } = await import(${MODULE});
      const { makeEvent } = await import(${CATALOGUE});
      const bus = await LocalStreamBus.open({ path: ${JSON.stringify(path)} });
      const ids = [];
      for (let i = 0; i < 200; i++) {
        const e = makeEvent({ env: 'streamtest', kind: 'region', verb: 'created', slugs: ['us-co'], version: 'v1' });
        await bus.publish(e);
        ids.push(e.id);
      }
      console.log(JSON.stringify(ids));
      process.kill(process.pid, 'SIGKILL');`,
      'SIGKILL',
    );
    const published = JSON.parse(stdout) as string[];
    expect(published).toHaveLength(200);

    bus = await LocalStreamBus.open({ path });
    const got: string[] = [];
    await bus.subscribe('civic.streamtest.>', (e) => void got.push(e.id), { durable: 'hooks' });
    await expect.poll(() => got, WAIT).toEqual(published);
  });

  test('a consumer killed (SIGKILL) inside its handler gets that event again after restart, then the rest, in order', async () => {
    const handled = join(path, 'handled.txt');
    await runTsModule(
      `
      const { appendFileSync } = await import('node:fs');
      const { LocalStreamBus } = await import(${MODULE});
      const { makeEvent } = await import(${CATALOGUE});
      const bus = await LocalStreamBus.open({ path: ${JSON.stringify(join(path, 'bus'))} });
      await (await bus.subscribe('civic.streamtest.>', () => {}, { durable: 'hooks' })).unsubscribe();
      for (let i = 0; i < 100; i++) await bus.publish(makeEvent({ env: 'streamtest', kind: 'region', verb: 'created', slugs: ['us-co' + i], version: 'v1' }));
      let n = 0;
      await bus.subscribe('civic.streamtest.>', (e) => {
        if (++n === 51) process.kill(process.pid, 'SIGKILL');
        appendFileSync(${JSON.stringify(handled)}, e.id + '\\n');
      }, { durable: 'hooks' });
      await new Promise(() => {});`,
      'SIGKILL',
    );
    const before = readFileSync(handled, 'utf8').trim().split('\n');
    expect(before).toHaveLength(50);

    bus = await LocalStreamBus.open({ path: join(path, 'bus') });
    const after: CivicEvent[] = [];
    await bus.subscribe('civic.streamtest.>', (e) => void after.push(e), { durable: 'hooks' });
    await expect.poll(() => after, WAIT).toHaveLength(50);
    expect(after.map((e) => e.slugs[0])).toEqual(Array.from({ length: 50 }, (_, i) => `us-co${i + 50}`));
    expect(new Set([...before, ...after.map((e) => e.id)]).size).toBe(100);
  });
});

import { decodeEvent, encodeEvent, eventObjectView, parseEvent, type CivicEvent } from '@civicgraph/kit';
import { beforeEach, describe, expect, test } from 'vitest';
import type { EdgeDoc } from '../model/nodes.js';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import type { PlainDraft } from './drafts.js';
import { batch, person, T0 } from './test-drafts.js';
import { GraphWriter } from './writer.js';

const OFFICE = 'office:co-governor';
const office: PlainDraft<'office'> = {
  kind: 'office',
  slug: OFFICE,
  state: 'co',
  tier: 'state',
  data: { name: 'Governor', level: 'state', tier: 'state', region: 'region:co' },
};
const region: PlainDraft<'region'> = {
  kind: 'region',
  slug: 'region:co',
  state: 'co',
  tier: '',
  data: { name: 'Colorado', level: 'state', fips: '08', ocdId: '', aliases: [], population: null },
  createOnly: true,
};
const term = (who: string, data: EdgeDoc['data']): EdgeDoc => ({
  kind: 'HOLDS',
  from: `person:${who}`,
  to: OFFICE,
  key: String(data['start'] ?? ''),
  data,
});
const withContact = (key: string, emails: string[]): PlainDraft<'person'> => ({
  ...person(key),
  data: { ...person(key).data, contactEmails: emails },
});

let store: MemoryGraphStore;
let writer: GraphWriter;

beforeEach(() => {
  store = new MemoryGraphStore();
  writer = new GraphWriter({ store, env: 'test', now: () => T0 });
});

/** Events committed since the last call (acknowledged as they are read). */
async function drain(): Promise<CivicEvent[]> {
  const events = (await store.pendingEvents(1000)).map((e) => e.event);
  await store.ackEvents(events.map((e) => e.id));
  return events;
}
const officeholderEvents = async () => (await drain()).filter((e) => e.subject === 'civic.test.officeholder.changed');

describe('officeholder.changed', () => {
  test('a new term is an event on civic.<env>.officeholder.changed naming the office and the person, scoped as the office', async () => {
    const out = await writer.apply(
      batch(
        [region, office, withContact('polis', ['gov@example.org'])],
        [term('polis', { start: '2019-01-08', end: null, party: 'party:dem' })],
      ),
    );
    const events = await drain();
    expect(events.map((e) => e.subject)).toEqual([
      'civic.test.region.created',
      'civic.test.office.created',
      'civic.test.person.created',
      'civic.test.officeholder.changed',
    ]);
    expect(out.events).toBe(4);
    const e = parseEvent(JSON.parse(JSON.stringify(events[3])));
    expect(e).toMatchObject({
      type: 'officeholder.changed',
      types: ['officeholder.changed'],
      slugs: [OFFICE, 'person:polis'],
      changedFields: ['end', 'party', 'start'],
    });
    expect(e.changes).toEqual([
      { field: 'end', before: null, after: null },
      { field: 'party', before: null, after: 'party:dem' },
      { field: 'start', before: null, after: '2019-01-08' },
    ]);
    expect(e.node).toBeUndefined();
    expect(eventObjectView(decodeEvent(encodeEvent(e)))).toEqual({
      kind: 'officeholder',
      state: 'co',
      tier: 'state',
      data: {
        person: { slug: 'person:polis', name: 'polis' },
        office: { slug: OFFICE, name: 'Governor', level: 'state', region: 'region:co' },
        term: '2019-01-08',
        start: '2019-01-08',
        end: null,
        party: 'party:dem',
        contactEmails: ['gov@example.org'],
      },
    });
  });

  test('re-applying the same terms writes nothing and emits nothing', async () => {
    const b = batch(
      [region, office, person('polis')],
      [term('polis', { start: '2019-01-08', end: null, party: null })],
    );
    await writer.apply(b);
    await drain();
    expect(await writer.apply(b)).toMatchObject({ linked: 0, events: 0 });
    expect(await drain()).toEqual([]);
  });

  test('a term that ends, and the holder who replaces it, are each an event naming what changed', async () => {
    await writer.apply(
      batch([region, office, person('polis')], [term('polis', { start: '2019-01-08', end: null, party: null })]),
    );
    await drain();
    await writer.apply(
      batch(
        [person('polis'), person('next')],
        [
          term('polis', { start: '2019-01-08', end: '2027-01-12', party: null }),
          term('next', { start: '2027-01-12', end: null, party: null }),
        ],
      ),
    );
    const events = await officeholderEvents();
    expect(events.map((e) => [e.slugs, e.changedFields, e.changes.map((c) => [c.field, c.before, c.after])])).toEqual([
      [[OFFICE, 'person:polis'], ['end'], [['end', null, '2027-01-12']]],
      [
        [OFFICE, 'person:next'],
        ['end', 'party', 'start'],
        [
          ['end', null, null],
          ['party', null, null],
          ['start', null, '2027-01-12'],
        ],
      ],
    ]);
  });

  test("a change to the person's contact fields alone is a person event, not an officeholder one", async () => {
    await writer.apply(
      batch(
        [region, office, withContact('polis', ['a@example.org'])],
        [term('polis', { start: '2019-01-08', end: null, party: null })],
      ),
    );
    await drain();
    await writer.apply(
      batch(
        [withContact('polis', ['b@example.org'])],
        [term('polis', { start: '2019-01-08', end: null, party: null })],
      ),
    );
    const events = await drain();
    expect(events.map((e) => [e.subject, e.changedFields])).toEqual([['civic.test.person.updated', ['contactEmails']]]);
  });
});

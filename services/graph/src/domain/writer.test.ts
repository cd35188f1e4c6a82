import { eventObjectView, InvalidParameterError, NotFoundError, parseEvent, type CivicEvent } from '@civicgraph/kit';
import { beforeEach, describe, expect, test } from 'vitest';
import type { NodeDoc } from '../model/nodes.js';
import { RevConflictError, type ChangeSet } from '../store/graph-store.js';
import { MemoryGraphStore } from '../store/memory/memory-graph-store.js';
import { batch, candidacy, candidacyWorld, contest, party, person, provenance, T0 } from './test-drafts.js';
import { GraphWriter } from './writer.js';

const SLUG = 'candidacy:co-cd-1-2026-jane-doe';
const days = (n: number): Date => new Date(T0.getTime() + n * 86_400_000);

let store: MemoryGraphStore;
let clock: Date;
let writer: GraphWriter;

beforeEach(() => {
  store = new MemoryGraphStore();
  clock = T0;
  writer = new GraphWriter({ store, env: 'test', now: () => clock });
});

async function pending(): Promise<CivicEvent[]> {
  return (await store.pendingEvents(1000)).map((e) => e.event);
}

async function held(slug = SLUG): Promise<NodeDoc<'candidacy'>> {
  const n = await store.getNode<'candidacy'>(slug);
  if (!n) throw new Error(`${slug} is not stored`);
  return n;
}

/** The world plus one import source and one official filing source. */
async function seed(): Promise<void> {
  await writer.apply(
    batch([...candidacyWorld(), provenance('fec'), provenance('vip'), provenance('sos', 'official-filing')]),
  );
  await store.ackEvents((await pending()).map((e) => e.id));
}

describe('GraphWriter.apply: plain nodes', () => {
  test('creates new nodes at rev 1, each with one created event committed alongside', async () => {
    const out = await writer.apply(batch([person('jane-doe', 'Jane Doe'), party('dem')]));
    expect(out).toMatchObject({ created: 2, updated: 0, unchanged: 0, events: 2 });
    expect(out.nodes.map((n) => [n.slug, n.outcome])).toEqual([
      ['person:jane-doe', 'created'],
      ['party:dem', 'created'],
    ]);
    expect(await store.getNode('person:jane-doe')).toMatchObject({ rev: 1, updatedAt: T0.toISOString(), state: 'co' });
    const events = await pending();
    expect(events.map((e) => [e.subject, e.slugs, e.changedFields])).toEqual([
      ['civic.test.person.created', ['person:jane-doe'], []],
      ['civic.test.party.created', ['party:dem'], []],
    ]);
    events.forEach((e) => parseEvent(e));
  });

  test('re-applying the same batch, even a month later, writes nothing and emits nothing', async () => {
    const b = batch(
      [
        person('jane-doe'),
        party('dem'),
        provenance('fec'),
        candidacy('fec', { party: 'party:dem' }),
        contest('co-cd-1-2026'),
      ],
      [{ kind: 'OF_PARTY', from: SLUG, to: 'party:dem', key: '', data: {} }],
    );
    await writer.apply(b);
    const before = { events: (await pending()).length, node: await held(), stats: await store.stats() };
    clock = days(30);
    const again = await writer.apply(b);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 5, linked: 0, events: 0 });
    expect((await pending()).length).toBe(before.events);
    expect(await held()).toEqual(before.node);
    expect(await store.stats()).toEqual(before.stats);
  });

  test('a changed data key updates the node, bumps its rev and names the key in the event', async () => {
    await writer.apply(batch([person('jane-doe', 'Jane Doe')]));
    clock = days(1);
    const out = await writer.apply(batch([person('jane-doe', 'Jane Q. Doe')]));
    expect(out.nodes).toEqual([
      { slug: 'person:jane-doe', kind: 'person', outcome: 'updated', changedFields: ['name'] },
    ]);
    expect(await store.getNode('person:jane-doe')).toMatchObject({
      rev: 2,
      updatedAt: days(1).toISOString(),
      data: { name: 'Jane Q. Doe' },
    });
    const last = (await pending()).at(-1)!;
    expect(last).toMatchObject({
      subject: 'civic.test.person.updated',
      slugs: ['person:jane-doe'],
      changedFields: ['name'],
      version: '2',
    });
  });

  test('a change of scope alone (state) is an update naming it', async () => {
    await writer.apply(batch([person('jane-doe')]));
    const out = await writer.apply(batch([{ ...person('jane-doe'), state: 'de' }]));
    expect(out.nodes[0]).toMatchObject({ outcome: 'updated', changedFields: ['state'] });
  });

  test('the last draft of a slug in one batch wins', async () => {
    await writer.apply(batch([person('jane-doe', 'First'), person('jane-doe', 'Second')]));
    expect(await store.getNode('person:jane-doe')).toMatchObject({ rev: 1, data: { name: 'Second' } });
    expect(await pending()).toHaveLength(1);
  });
});

describe('GraphWriter.apply: edges', () => {
  test('links an edge once: applying it again does not duplicate it or emit anything', async () => {
    const edge = { kind: 'OF_PARTY' as const, from: SLUG, to: 'party:dem', key: '', data: {} };
    await seed();
    await writer.apply(batch([candidacy('fec')], [edge]));
    const out = await writer.apply(batch([candidacy('fec')], [edge, edge]));
    expect(out).toMatchObject({ linked: 0, events: 0 });
    expect(await store.edges(SLUG, 'out', 'OF_PARTY')).toHaveLength(1);
  });

  test('links each candidacy to the provenance backing its claims', async () => {
    await seed();
    await writer.apply(batch([candidacy('fec'), candidacy('vip')]));
    const supported = await store.edges(SLUG, 'out', 'SUPPORTED_BY');
    expect(supported.map((e) => e.to).sort()).toEqual(['provenance:fec', 'provenance:vip']);
  });

  test('a new edge between stored, unchanged nodes is an updated event on the node it leaves', async () => {
    await seed();
    await writer.apply(batch([candidacy('fec')]));
    await store.ackEvents((await pending()).map((e) => e.id));
    const out = await writer.apply(batch([], [{ kind: 'OF_PARTY', from: SLUG, to: 'party:dem', key: '', data: {} }]));
    expect(out).toMatchObject({ unchanged: 0, linked: 1, events: 1 });
    expect(await pending()).toMatchObject([
      { subject: 'civic.test.candidacy.updated', slugs: [SLUG, 'party:dem'], changedFields: ['OF_PARTY'] },
    ]);
  });

  test('an edge to a node that exists nowhere is refused and nothing is written', async () => {
    const bad = batch(
      [person('jane-doe')],
      [{ kind: 'HOLDS', from: 'person:jane-doe', to: 'office:nowhere', key: '', data: {} }],
    );
    await expect(writer.apply(bad)).rejects.toThrow(/office:nowhere is neither in the batch nor stored/);
    expect(await store.getNode('person:jane-doe')).toBeUndefined();
  });

  test('an edge joining the wrong kinds is refused naming the edge', async () => {
    const bad = batch(
      [person('jane-doe'), party('dem')],
      [{ kind: 'OF_PARTY', from: 'person:jane-doe', to: 'party:dem', key: '', data: {} }],
    );
    await expect(writer.apply(bad)).rejects.toThrow(/OF_PARTY cannot start at person:jane-doe/);
  });
});

describe('GraphWriter.apply: candidacies', () => {
  beforeEach(seed);

  test('a first draft creates the candidacy with each field resolved from its claim', async () => {
    const out = await writer.apply(batch([candidacy('fec', { party: 'party:dem', filingStatus: 'FILED' })]));
    expect(out.nodes[0]).toMatchObject({ outcome: 'created' });
    const c = await held();
    expect(c.data.fields.party).toEqual({
      value: 'party:dem',
      confidence: 0.8,
      claims: [{ value: 'party:dem', provenance: 'provenance:fec' }],
    });
    expect(c.data.confidence).toBe(0.8);
    expect(c.data.fields.campaignEmails).toBeUndefined();
  });

  test('a second source agreeing raises the confidence; one disagreeing on party lowers it', async () => {
    await writer.apply(batch([candidacy('fec', { party: 'party:dem' })]));
    const one = (await held()).data;
    await writer.apply(batch([candidacy('vip', { party: 'party:dem' })]));
    const agreeing = (await held()).data;
    expect(agreeing.fields.party!.confidence).toBeGreaterThan(one.fields.party!.confidence);
    expect(agreeing.confidence).toBeGreaterThan(one.confidence);
    await writer.apply(batch([candidacy('vip', { party: 'party:rep' })]));
    const split = (await held()).data;
    expect(split.fields.party!.confidence).toBeLessThan(one.fields.party!.confidence);
    expect(split.fields.party!.claims).toHaveLength(2);
  });

  test('a claim from the same provenance replaces its earlier claim on that field', async () => {
    await writer.apply(batch([candidacy('fec', { party: 'party:dem' })]));
    const out = await writer.apply(batch([candidacy('fec', { party: 'party:rep' })]));
    expect(out.nodes[0]).toMatchObject({ outcome: 'updated', changedFields: ['party'] });
    expect((await held()).data.fields.party).toEqual({
      value: 'party:rep',
      confidence: 0.8,
      claims: [{ value: 'party:rep', provenance: 'provenance:fec' }],
    });
    expect((await pending()).at(-1)).toMatchObject({
      subject: 'civic.test.candidacy.updated',
      changedFields: ['party'],
    });
  });

  test('sources arriving in either order give the same candidacy', async () => {
    await writer.apply(batch([candidacy('fec', { party: 'party:dem' }), candidacy('vip', { party: 'party:rep' })]));
    const ab = (await held()).data;
    const otherStore = new MemoryGraphStore();
    const other = new GraphWriter({ store: otherStore, env: 'test', now: () => clock });
    await other.apply(
      batch([...candidacyWorld(), provenance('fec'), provenance('vip'), provenance('sos', 'official-filing')]),
    );
    await other.apply(batch([candidacy('vip', { party: 'party:rep' })]));
    await other.apply(batch([candidacy('fec', { party: 'party:dem' })]));
    const ba = (await otherStore.getNode<'candidacy'>(SLUG))!.data;
    expect(ba).toEqual(ab);
  });

  test('a provenance record re-read later in the same batch re-scores the candidacies citing it', async () => {
    await writer.apply(batch([candidacy('fec', { party: 'party:dem' })]));
    clock = days(365);
    // Same claims, but the source was read again today: the stale reading is refreshed.
    const out = await writer.apply(
      batch([provenance('fec', 'import', days(365).toISOString()), candidacy('fec', { party: 'party:dem' })]),
    );
    expect(out.nodes.map((n) => n.outcome)).toEqual(['updated', 'unchanged']);
    expect((await held()).data.confidence).toBe(0.8);
    clock = days(730);
    await writer.apply(
      batch([person('jane-doe', 'Jane Doe'), candidacy('vip', { campaignWebsite: 'https://jane.example' })]),
    );
    // A write for another reason re-scores with today's clock: fec's reading is now a year old.
    expect((await held()).data.fields.party!.confidence).toBe(0.4);
  });

  test('a legal filing move through an import is accepted and evented', async () => {
    await writer.apply(batch([candidacy('fec', { filingStatus: 'FILED' })]));
    await writer.apply(batch([candidacy('fec', { filingStatus: 'QUALIFIED' })]));
    expect((await held()).data.fields.filingStatus!.value).toBe('QUALIFIED');
    expect((await pending()).at(-1)).toMatchObject({
      changedFields: ['filingStatus'],
      type: 'candidacy.filing_status_changed',
      changes: [{ field: 'filingStatus', before: 'FILED', after: 'QUALIFIED' }],
    });
    expect(eventObjectView((await pending()).at(-1)!)).toMatchObject({
      kind: 'candidacy',
      data: { fields: { filingStatus: { value: 'QUALIFIED' } } },
    });
  });

  test('an illegal move rejects the whole batch: the error names the field and both values, nothing is written', async () => {
    await writer.apply(batch([candidacy('fec', { filingStatus: 'QUALIFIED' })]));
    const before = { node: await held(), events: (await pending()).length };
    const illegal = batch([person('john-roe'), candidacy('fec', { filingStatus: 'DECLARED' })]);
    const err = await writer.apply(illegal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect((err as InvalidParameterError).field).toBe('filing_status');
    expect((err as Error).message).toMatch(new RegExp(`${SLUG}: filing_status cannot move from QUALIFIED to DECLARED`));
    expect(await store.getNode('person:john-roe')).toBeUndefined();
    expect(await held()).toEqual(before.node);
    expect(await pending()).toHaveLength(before.events);
  });

  test('ballot access leaves ON_BALLOT for REMOVED only with a withdrawal', async () => {
    await writer.apply(batch([candidacy('fec', { filingStatus: 'QUALIFIED', ballotAccess: 'ON_BALLOT' })]));
    await expect(writer.apply(batch([candidacy('fec', { ballotAccess: 'REMOVED' })]))).rejects.toMatchObject({
      field: 'ballot_access',
    });
    await writer.apply(batch([candidacy('fec', { filingStatus: 'WITHDRAWN', ballotAccess: 'REMOVED' })]));
    expect((await held()).data.fields.ballotAccess!.value).toBe('REMOVED');
  });

  test('a first draft without a contest is refused naming the field', async () => {
    const draft = candidacy('fec');
    delete draft.claims.contest;
    await expect(writer.apply(batch([draft]))).rejects.toMatchObject({
      field: 'contest',
      message: expect.stringMatching(/needs a contest/),
    });
  });

  test('a claim citing provenance that exists nowhere is refused naming it', async () => {
    await expect(writer.apply(batch([candidacy('nowhere')]))).rejects.toThrow(
      /provenance:nowhere is neither in the batch nor stored/,
    );
  });

  test('a malformed claim value is refused naming the field', async () => {
    await expect(writer.apply(batch([candidacy('fec', { filingStatus: 'ELECTED' as never })]))).rejects.toMatchObject({
      field: 'filing_status',
    });
    await expect(writer.apply(batch([candidacy('fec', { party: 'DEM' })]))).rejects.toMatchObject({ field: 'party' });
    await expect(writer.apply(batch([candidacy('fec', { campaignEmails: 'a@x.org' as never })]))).rejects.toMatchObject(
      { field: 'campaign_emails' },
    );
  });

  test('a draft whose slug is of another kind is refused', async () => {
    await expect(writer.apply(batch([{ ...person('x'), slug: 'party:x' }]))).rejects.toMatchObject({ field: 'kind' });
  });

  test('a provenance record with an unreadable retrievedAt is refused naming the field', async () => {
    await expect(writer.apply(batch([provenance('bad', 'import', '11/5/24')]))).rejects.toMatchObject({
      field: 'retrieved_at',
    });
  });
});

describe('GraphWriter.moveCandidacy', () => {
  beforeEach(async () => {
    await seed();
    await writer.apply(batch([candidacy('fec', { filingStatus: 'FILED', ballotAccess: 'PENDING' })]));
  });

  test('an accepted move is recorded as a claim and is an updated event', async () => {
    const out = await writer.moveCandidacy(
      SLUG,
      { filingStatus: 'QUALIFIED', ballotAccess: 'ON_BALLOT' },
      'provenance:sos',
    );
    expect(out).toMatchObject({ outcome: 'updated', changedFields: ['ballotAccess', 'filingStatus'] });
    const f = (await held()).data.fields;
    expect(f.filingStatus!.value).toBe('QUALIFIED');
    expect(f.filingStatus!.claims).toContainEqual({ value: 'QUALIFIED', provenance: 'provenance:sos' });
    // The event also names the new SUPPORTED_BY edge to the provenance behind the move.
    expect((await pending()).at(-1)).toMatchObject({
      subject: 'civic.test.candidacy.updated',
      slugs: [SLUG, 'provenance:sos'],
      changedFields: ['ballotAccess', 'filingStatus', 'SUPPORTED_BY'],
    });
  });

  test('an illegal move is refused naming the field and both values, and nothing is written', async () => {
    const before = await held();
    const err = await writer
      .moveCandidacy(SLUG, { filingStatus: 'DECLARED' }, 'provenance:sos')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect(err).toMatchObject({ field: 'filing_status', message: expect.stringMatching(/from FILED to DECLARED/) });
    expect(await held()).toEqual(before);
  });

  test('REMOVED before withdrawal is refused naming ballot_access', async () => {
    await writer.moveCandidacy(SLUG, { ballotAccess: 'ON_BALLOT' }, 'provenance:sos');
    await expect(writer.moveCandidacy(SLUG, { ballotAccess: 'REMOVED' }, 'provenance:sos')).rejects.toMatchObject({
      field: 'ballot_access',
      message: expect.stringMatching(/from ON_BALLOT to REMOVED/),
    });
    const out = await writer.moveCandidacy(
      SLUG,
      { filingStatus: 'WITHDRAWN', ballotAccess: 'REMOVED' },
      'provenance:sos',
    );
    expect(out.outcome).toBe('updated');
  });

  test('a move outweighed by more reliable sources is refused rather than silently ignored', async () => {
    await writer.moveCandidacy(SLUG, { filingStatus: 'QUALIFIED' }, 'provenance:sos');
    await writer.apply(batch([provenance('blog', 'scrape')]));
    const before = await held();
    await expect(writer.moveCandidacy(SLUG, { filingStatus: 'WITHDRAWN' }, 'provenance:blog')).rejects.toMatchObject({
      field: 'filing_status',
      message: expect.stringMatching(/QUALIFIED to WITHDRAWN.*outweigh/),
    });
    expect(await held()).toEqual(before);
  });

  test('moving a candidacy that does not exist is not found', async () => {
    await expect(
      writer.moveCandidacy('candidacy:nobody', { filingStatus: 'FILED' }, 'provenance:sos'),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  test('a move naming no field is refused', async () => {
    await expect(writer.moveCandidacy(SLUG, {}, 'provenance:sos')).rejects.toBeInstanceOf(InvalidParameterError);
  });
});

describe('GraphWriter: concurrent writers', () => {
  /** A real store whose first `conflicts` commits lose a race: another writer bumps the node first. */
  class RacedStore extends MemoryGraphStore {
    commits = 0;
    constructor(public conflicts: number) {
      super();
    }
    override async commit(changes: ChangeSet): Promise<void> {
      this.commits++;
      if (this.conflicts > 0 && changes.put.length > 0) {
        this.conflicts--;
        const n = (await this.getNode('person:jane-doe'))!;
        await super.commit({
          put: [{ node: { ...n, data: { ...n.data, gender: `race-${this.conflicts}` } }, expectRev: n.rev }],
          remove: [],
          link: [],
          unlink: [],
          events: [],
        });
      }
      return super.commit(changes);
    }
  }

  test('after a rev conflict the writer re-reads and retries', async () => {
    const raced = new RacedStore(0);
    const w = new GraphWriter({ store: raced, env: 'test', now: () => T0 });
    await w.apply(batch([person('jane-doe', 'Jane')]));
    raced.conflicts = 2;
    const out = await w.apply(batch([person('jane-doe', 'Jane Doe')]));
    expect(out.nodes[0]!.outcome).toBe('updated');
    expect(await raced.getNode('person:jane-doe')).toMatchObject({ rev: 4, data: { name: 'Jane Doe' } });
  });

  test('gives up with the RevConflictError after three retries', async () => {
    const raced = new RacedStore(0);
    const w = new GraphWriter({ store: raced, env: 'test', now: () => T0 });
    await w.apply(batch([person('jane-doe', 'Jane')]));
    raced.conflicts = 10;
    raced.commits = 0;
    await expect(w.apply(batch([person('jane-doe', 'Jane Doe')]))).rejects.toBeInstanceOf(RevConflictError);
    expect(raced.commits).toBe(4);
  });
});

describe('GraphWriter: malformed input', () => {
  test.each([
    ['a batch without lists', { nodes: null, edges: [] }, 'batch'],
    ['a null node draft', { nodes: [null], edges: [] }, 'nodes'],
    ['a draft without a slug', { nodes: [{ kind: 'person', state: '', tier: '', data: {} }], edges: [] }, 'slug'],
    ['a draft with an upper-case state', { nodes: [{ ...person('x'), state: 'CO' }], edges: [] }, 'state'],
    ['a draft with an unknown tier', { nodes: [{ ...person('x'), tier: 'galactic' }], edges: [] }, 'tier'],
    ['a null edge', { nodes: [], edges: [null] }, 'edge'],
    [
      'an edge of unknown kind',
      { nodes: [person('x')], edges: [{ kind: 'LIKES', from: 'person:x', to: 'person:x', key: '', data: {} }] },
      'edge',
    ],
    [
      'a candidacy claiming an unknown field',
      { nodes: [{ ...candidacy('fec'), claims: { nickname: 'JD' } }], edges: [] },
      'nickname',
    ],
  ])('%s is refused with an InvalidParameterError naming %s, never a crash', async (_what, bad, field) => {
    const err = await writer.apply(bad as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect((err as InvalidParameterError).field).toBe(field);
    expect(await store.stats()).toMatchObject({ nodes: 0, pendingEvents: 0 });
  });
});

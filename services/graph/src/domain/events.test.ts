import { decodeEvent, encodeEvent, eventObjectView, parseEvent } from '@civicgraph/kit';
import { describe, expect, test } from 'vitest';
import { NODE_KINDS } from '../model/kinds.js';
import { nodeEvent } from './events.js';

const now = new Date('2026-05-01T12:00:00Z');

describe('nodeEvent', () => {
  test.each(NODE_KINDS.map((k) => [k]))('a %s change is an event on civic.<env>.%s.<verb> that parses', (kind) => {
    const e = nodeEvent('live', { kind, verb: 'updated', slugs: [`${kind}:x`], changedFields: ['name'], rev: 2 }, now);
    expect(e.subject).toBe(`civic.live.${kind}.updated`);
    expect(parseEvent(JSON.parse(JSON.stringify(e)))).toEqual(e);
    expect(decodeEvent(encodeEvent(e))).toEqual(e);
  });

  test('carries the slugs, the changed fields, the rev as version and the commit instant', () => {
    const e = nodeEvent(
      'test',
      { kind: 'candidacy', verb: 'updated', slugs: ['candidacy:a'], changedFields: ['party'], rev: 7 },
      now,
    );
    expect(e).toMatchObject({
      slugs: ['candidacy:a'],
      changedFields: ['party'],
      version: '7',
      occurredAt: '2026-05-01T12:00:00.000Z',
    });
    expect(e.id).toMatch(/^evt_/);
  });

  test('a created node names no changed fields: the whole node is new', () => {
    const e = nodeEvent(
      'test',
      { kind: 'person', verb: 'created', slugs: ['person:a'], changedFields: ['name'], rev: 1 },
      now,
    );
    expect(e.changedFields).toEqual([]);
  });

  test('every event has its own id', () => {
    const change = {
      kind: 'party' as const,
      verb: 'created' as const,
      slugs: ['party:dem'],
      changedFields: [],
      rev: 1,
    };
    expect(nodeEvent('test', change, now).id).not.toBe(nodeEvent('test', change, now).id);
  });

  test('names its types, most specific first, its environment, each changed value before and after, and the node after', () => {
    const doc = (filingStatus: string, rev: number) => ({
      slug: 'candidacy:a',
      kind: 'candidacy' as const,
      state: 'co',
      tier: 'state' as const,
      rev,
      updatedAt: now.toISOString(),
      data: { fields: { filingStatus: { value: filingStatus }, party: { value: 'party:dem' } } } as never,
    });
    const e = nodeEvent(
      'live',
      {
        kind: 'candidacy',
        verb: 'updated',
        slugs: ['candidacy:a'],
        changedFields: ['filingStatus'],
        rev: 3,
        before: doc('filed', 2),
        after: doc('qualified', 3),
      },
      now,
    );
    expect(e).toMatchObject({
      type: 'candidacy.filing_status_changed',
      types: ['candidacy.filing_status_changed', 'candidacy.updated'],
      environment: 'live',
    });
    expect(e.changes).toEqual([{ field: 'filingStatus', before: 'filed', after: 'qualified' }]);
    expect(e.node).toMatchObject({
      slug: 'candidacy:a',
      state: 'co',
      tier: 'state',
      rev: 3,
      data: { fields: { filingStatus: { value: 'qualified' } } },
    });
    const sent = decodeEvent(encodeEvent(e));
    expect(sent.changes).toEqual(e.changes);
    expect(eventObjectView(sent)).toEqual({
      slug: 'candidacy:a',
      kind: 'candidacy',
      state: 'co',
      tier: 'state',
      rev: 3,
      updatedAt: now.toISOString(),
      data: { fields: { filingStatus: { value: 'qualified' }, party: { value: 'party:dem' } } },
    });
  });

  test('derives the specific types from what changed', () => {
    const ev = (kind: (typeof NODE_KINDS)[number], verb: 'created' | 'updated', fields: string[]) =>
      nodeEvent('test', { kind, verb, slugs: [`${kind}:x`], changedFields: fields, rev: 1 }, now).types;
    expect(ev('result', 'created', [])).toEqual(['results.certified', 'result.created']);
    expect(ev('person', 'updated', ['HOLDS'])).toEqual(['person.updated']);
    expect(ev('election', 'updated', ['date'])).toEqual(['election_date.changed', 'election.updated']);
    expect(ev('candidacy', 'updated', ['party'])).toEqual(['candidacy.updated']);
    expect(ev('contest', 'created', [])).toEqual(['contest.created']);
  });

  test('parses an event written before types, environment, changes and node existed, deriving them', () => {
    const old = {
      id: 'evt_old',
      subject: 'civic.live.candidacy.updated',
      occurredAt: now.toISOString(),
      slugs: ['candidacy:a'],
      changedFields: ['filingStatus'],
      version: '2',
    };
    const parsed = parseEvent(old);
    expect(parsed).toMatchObject({ type: 'candidacy.filing_status_changed', environment: 'live', changes: [] });
    expect(parsed.node).toBeUndefined();
  });
});

import { parseEvent } from '@civicgraph/kit';
import { describe, expect, test } from 'vitest';
import { NODE_KINDS } from '../model/kinds.js';
import { nodeEvent } from './events.js';

const now = new Date('2026-05-01T12:00:00Z');

describe('nodeEvent', () => {
  test.each(NODE_KINDS.map((k) => [k]))('a %s change is an event on civic.<env>.%s.<verb> that parses', (kind) => {
    const e = nodeEvent('live', { kind, verb: 'updated', slugs: [`${kind}:x`], changedFields: ['name'], rev: 2 }, now);
    expect(e.subject).toBe(`civic.live.${kind}.updated`);
    expect(parseEvent(e)).toBe(e);
  });

  test('carries the slugs, the changed fields, the rev as version and the commit instant', () => {
    const e = nodeEvent('test', { kind: 'candidacy', verb: 'updated', slugs: ['candidacy:a'], changedFields: ['party'], rev: 7 }, now);
    expect(e).toMatchObject({ slugs: ['candidacy:a'], changedFields: ['party'], version: '7', occurredAt: '2026-05-01T12:00:00.000Z' });
    expect(e.id).toMatch(/^evt_/);
  });

  test('a created node names no changed fields: the whole node is new', () => {
    const e = nodeEvent('test', { kind: 'person', verb: 'created', slugs: ['person:a'], changedFields: ['name'], rev: 1 }, now);
    expect(e.changedFields).toEqual([]);
  });

  test('every event has its own id', () => {
    const change = { kind: 'party' as const, verb: 'created' as const, slugs: ['party:dem'], changedFields: [], rev: 1 };
    expect(nodeEvent('test', change, now).id).not.toBe(nodeEvent('test', change, now).id);
  });
});

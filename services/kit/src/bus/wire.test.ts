import type { Officeholder } from '@civicgraph/protos/civic/events/v1/events';
import { describe, expect, test } from 'vitest';
import { makeEvent, type CivicEvent } from './catalogue.js';
import { eventObjectView, type NodeView, type OfficeholderView } from './event-objects.js';
import { parseEvent } from './parse-event.js';
import { decodeEvent, encodeEvent } from './wire.js';

const NODE: NodeView = {
  slug: 'candidacy:a',
  kind: 'candidacy',
  state: 'co',
  tier: 'state',
  rev: 3,
  updatedAt: '2026-11-01T12:00:00.000Z',
  data: {
    fields: {
      filingStatus: { value: 'QUALIFIED', confidence: 0.9, claims: [{ source: 'provenance:p', at: null }] },
      campaignEmails: { value: [] },
    },
    confirmed: true,
  },
};
const CHANGES = [
  { field: 'filingStatus', before: 'FILED', after: 'QUALIFIED' },
  { field: 'campaignEmails', before: null, after: ['a@b.test', 'c@d.test'] },
  { field: 'votes', before: 0, after: { total: 12.5, final: false } },
];
const OFFICEHOLDER: Officeholder = {
  state: 'co',
  tier: 'state',
  person: { slug: 'person:p', name: 'P' },
  office: { slug: 'office:co-governor', name: 'Governor', level: 'state', region: 'region:co' },
  term: '2019-01-08',
  start: '2019-01-08',
  contact: { contactEmails: ['gov@b.test'], contactOffices: [{ kind: 'capitol', fax: null }] },
};

const candidacyEvent = () =>
  makeEvent({
    env: 'live',
    kind: 'candidacy',
    verb: 'updated',
    slugs: ['candidacy:a'],
    changedFields: CHANGES.map((c) => c.field),
    version: '3',
    changes: CHANGES,
    node: NODE,
  });
const officeholderEvent = () =>
  makeEvent({
    env: 'live',
    kind: 'officeholder',
    verb: 'changed',
    slugs: ['office:co-governor', 'person:p'],
    changedFields: ['start'],
    version: '1',
    changes: [{ field: 'start', before: null, after: '2019-01-08' }],
    officeholder: OFFICEHOLDER,
  });

/** What a release before the typed envelope put on the wire: the object and change values as JSON text. */
function legacyForm(e: CivicEvent, object: unknown): Record<string, unknown> {
  const { node: _node, officeholder: _officeholder, ...rest } = e;
  return {
    ...rest,
    changes: e.changes.map((c) => ({
      field: c.field,
      beforeJson: JSON.stringify(c.before),
      afterJson: JSON.stringify(c.after),
    })),
    nodeJson: object === undefined ? '' : JSON.stringify(object),
  };
}
const bytes = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));

describe('the typed envelope on the wire', () => {
  test('a node event crosses protobuf with its node and change values as objects, not text', () => {
    const sent = candidacyEvent();
    const got = decodeEvent(encodeEvent(sent));
    expect(got).toEqual(sent);
    expect(got.node?.data).toEqual(NODE.data);
    expect(got.changes.map((c) => c.after)).toEqual([
      'QUALIFIED',
      ['a@b.test', 'c@d.test'],
      { total: 12.5, final: false },
    ]);
    expect(got.changes[1]!.before).toBeNull();
    expect(eventObjectView(got)).toEqual(NODE);
  });

  test('an officeholder event crosses protobuf with its officeholder typed, unknown dates null in the view', () => {
    const sent = officeholderEvent();
    const got = decodeEvent(encodeEvent(sent));
    expect(got).toEqual(sent);
    expect(got.node).toBeUndefined();
    expect(eventObjectView(got)).toEqual({
      kind: 'officeholder',
      state: 'co',
      tier: 'state',
      data: {
        person: { slug: 'person:p', name: 'P' },
        office: { slug: 'office:co-governor', name: 'Governor', level: 'state', region: 'region:co' },
        term: '2019-01-08',
        start: '2019-01-08',
        end: null,
        party: null,
        contactEmails: ['gov@b.test'],
        contactOffices: [{ kind: 'capitol', fax: null }],
      },
    });
  });

  test('an event without an object, and one with no changes, cross unchanged', () => {
    const key = makeEvent({ env: 'test', kind: 'key', verb: 'revoked', slugs: ['key_x'], version: '' });
    expect(decodeEvent(encodeEvent(key))).toEqual(key);
  });

  test('protobuf never opens with the brace that marks JSON text', () => {
    for (const e of [candidacyEvent(), officeholderEvent()]) expect(encodeEvent(e)[0]).not.toBe(0x7b);
  });
});

describe('events written as JSON text before the envelope was typed', () => {
  test('a JSON-era node event reads as the typed event it stands for', () => {
    const e = candidacyEvent();
    expect(decodeEvent(bytes(legacyForm(e, NODE)))).toEqual(e);
  });

  test('a JSON-era officeholder event reads with its officeholder typed, and renders as the very JSON it carried', () => {
    const e = officeholderEvent();
    const view: OfficeholderView = eventObjectView(e) as OfficeholderView;
    const got = decodeEvent(bytes(legacyForm(e, view)));
    expect(got).toEqual(e);
    expect(JSON.stringify(eventObjectView(got))).toBe(JSON.stringify(view));
  });

  test('a JSON-era event about no object reads with neither node nor officeholder', () => {
    const e = makeEvent({ env: 'test', kind: 'region', verb: 'deleted', slugs: ['region:x'], version: '2' });
    const got = parseEvent(legacyForm(e, undefined));
    expect(got).toEqual(e);
    expect(got.node).toBeUndefined();
  });
});

describe('parseEvent', () => {
  test('refuses an object that does not belong to the topic, naming the field', () => {
    const key = {
      ...makeEvent({ env: 'test', kind: 'key', verb: 'revoked', slugs: ['key_x'], version: '' }),
      node: candidacyEvent().node,
    };
    expect(() => parseEvent(key)).toThrow('event field "node"');
    const region = {
      ...makeEvent({ env: 'test', kind: 'region', verb: 'updated', slugs: ['region:x'], version: '' }),
      officeholder: OFFICEHOLDER,
    };
    expect(() => parseEvent(region)).toThrow('event field "officeholder"');
  });

  test('refuses a node of no known kind and JSON text that is not JSON, naming the field', () => {
    const e = candidacyEvent();
    expect(() => parseEvent({ ...e, node: { ...e.node, kind: 0 } })).toThrow('event field "node.kind"');
    expect(() =>
      parseEvent({ ...legacyForm(e, NODE), changes: [{ field: 'x', beforeJson: '{', afterJson: 'null' }] }),
    ).toThrow('event field "changes[0].beforeJson"');
    expect(() => parseEvent({ ...legacyForm(e, NODE), nodeJson: 'nope' })).toThrow('event field "nodeJson"');
  });

  test('a change value left unset reads as null, as the webhook payload shows it', () => {
    const e = { ...candidacyEvent(), changes: [{ field: 'party' }] };
    expect(parseEvent(e).changes).toEqual([{ field: 'party', before: null, after: null }]);
  });
});

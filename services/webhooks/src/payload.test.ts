import { describe, expect, it } from 'vitest';
import { makeEvent, parseEvent } from '@civicgraph/kit';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { payloadFor } from './payload.js';

const principal = (
  over: Partial<NonNullable<Principal['entitlements']>> = {},
  environment = Environment.ENVIRONMENT_LIVE,
): Principal => ({
  keyId: 'key_x',
  environment,
  plan: Plan.PLAN_BUILD,
  pinnedVersion: '2026-11-01',
  rateLimitPerMinute: 600,
  entitlements: { contact: false, geography: true, states: [], tiers: [], ...over },
});

const candidacy = (state: string, tier: string) => ({
  slug: 'candidacy:a',
  kind: 'candidacy' as const,
  state,
  tier,
  rev: 3,
  updatedAt: '2026-11-01T00:00:00.000Z',
  data: {
    fields: {
      filingStatus: { value: 'QUALIFIED' },
      campaignEmails: { value: ['a@b.test'] },
      campaignPhones: { value: ['555'] },
    },
  },
});

const FILING = { field: 'filingStatus', before: 'FILED', after: 'QUALIFIED' };
const EMAILS = { field: 'campaignEmails', before: [], after: ['a@b.test'] };

const event = (state = 'co', tier = 'state', env = 'live', changes = [FILING, EMAILS]) =>
  makeEvent({
    env,
    kind: 'candidacy',
    verb: 'updated',
    slugs: ['candidacy:a'],
    changedFields: changes.map((c) => c.field),
    version: '3',
    changes,
    node: candidacy(state, tier),
  });

describe('payloadFor', () => {
  it('gives a key with contact the whole change', () => {
    const p = payloadFor(event(), principal({ contact: true }))!;
    expect(p).toMatchObject({ type: 'candidacy.filing_status_changed', environment: 'live' });
    expect(p.data.changes.map((c) => c.field)).toEqual(['filingStatus', 'campaignEmails']);
    expect(JSON.stringify(p)).toContain('a@b.test');
  });

  it('leaves every contact field out, for a key without contact: from the node, the changes and the changed fields', () => {
    const p = payloadFor(event(), principal())!;
    expect(p.data.changes).toEqual([{ field: 'filingStatus', before: 'FILED', after: 'QUALIFIED' }]);
    expect(p.data.changed_fields).toEqual(['filingStatus']);
    const text = JSON.stringify(p);
    for (const f of ['campaignEmails', 'campaignPhones', 'a@b.test', '555']) expect(text).not.toContain(f);
    expect(text).toContain('QUALIFIED');
  });

  it('delivers a change of contact fields alone only to keys with contact', () => {
    const emailsOnly = event('co', 'state', 'live', [EMAILS]);
    expect(payloadFor(emailsOnly, principal())).toBeUndefined();
    expect(payloadFor(emailsOnly, principal({ contact: true }))?.data.changed_fields).toEqual(['campaignEmails']);
  });

  it("delivers nothing outside the key's states, tiers or environment", () => {
    expect(payloadFor(event('de'), principal({ states: ['co'] }))).toBeUndefined();
    expect(payloadFor(event('co', 'county'), principal({ tiers: ['federal', 'state'] }))).toBeUndefined();
    expect(payloadFor(event('co', 'state', 'test'), principal())).toBeUndefined();
    expect(payloadFor(event(), principal({}, Environment.ENVIRONMENT_TEST))).toBeUndefined();
    expect(payloadFor(event('co', 'state'), principal({ states: ['co'], tiers: ['state'] }))).toBeDefined();
  });

  const contact = {
    contactEmails: ['gov@b.test'],
    contactOffices: [{ kind: 'capitol', address: '200 E Colfax', voice: '555', fax: null }],
    contactLinks: [{ url: 'https://b.test', note: '' }],
  };
  const officeholder = (changes = [{ field: 'start', before: null, after: '2019-01-08' }]) =>
    makeEvent({
      env: 'live',
      kind: 'officeholder',
      verb: 'changed',
      slugs: ['office:co-governor', 'person:p'],
      changedFields: changes.map((c) => c.field),
      version: '1',
      changes,
      officeholder: {
        state: 'co',
        tier: 'state',
        person: { slug: 'person:p', name: 'P' },
        office: { slug: 'office:co-governor', name: 'Governor', level: 'state', region: 'region:co' },
        term: '',
        start: '2019-01-08',
        contact,
      },
    });
  const person = (changes: { field: string; before: unknown; after: unknown }[]) =>
    makeEvent({
      env: 'live',
      kind: 'person',
      verb: 'updated',
      slugs: ['person:p'],
      changedFields: changes.map((c) => c.field),
      version: '2',
      changes,
      node: {
        slug: 'person:p',
        kind: 'person',
        state: 'co',
        tier: '',
        rev: 2,
        updatedAt: '2026-11-01T00:00:00.000Z',
        data: { name: 'P', start: '2019-01-08', ...contact },
      },
    });

  it("shapes an officeholder's and a person's channels by the same rule: present with contact, absent without", () => {
    for (const e of [officeholder(), person([{ field: 'name', before: 'Q', after: 'P' }])]) {
      expect(JSON.stringify(payloadFor(e, principal({ contact: true })))).toContain('gov@b.test');
      const text = JSON.stringify(payloadFor(e, principal()));
      for (const f of [
        'contactEmails',
        'contactOffices',
        'contactLinks',
        'gov@b.test',
        '200 E Colfax',
        'https://b.test',
      ])
        expect(text).not.toContain(f);
      expect(text).toContain('2019-01-08');
    }
    expect(payloadFor(officeholder(), principal())).toMatchObject({
      type: 'officeholder.changed',
      data: { slugs: ['office:co-governor', 'person:p'], changed_fields: ['start'] },
    });
  });

  it("a change to a person's channels alone reaches only keys with contact; an officeholder outside the key's scope reaches nobody", () => {
    const channels = person([{ field: 'contactEmails', before: [], after: ['gov@b.test'] }]);
    expect(payloadFor(channels, principal())).toBeUndefined();
    expect(payloadFor(channels, principal({ contact: true }))?.data.changed_fields).toEqual(['contactEmails']);
    expect(payloadFor(officeholder(), principal({ tiers: ['federal'] }))).toBeUndefined();
    expect(payloadFor(officeholder(), principal({ states: ['de'] }))).toBeUndefined();
  });

  it('gives a subscriber the same body for an event read from its JSON-era form as the graph published then, key for key', () => {
    // As a release before the typed envelope stored them in outboxes and streams.
    const legacy = (e: ReturnType<typeof makeEvent>, object: unknown) => {
      const { node: _node, officeholder: _officeholder, ...rest } = e;
      return parseEvent({
        ...rest,
        changes: e.changes.map((c) => ({
          field: c.field,
          beforeJson: JSON.stringify(c.before),
          afterJson: JSON.stringify(c.after),
        })),
        nodeJson: JSON.stringify(object),
      });
    };
    const node = candidacy('co', 'state');
    const holderObject = {
      kind: 'officeholder',
      state: 'co',
      tier: 'state',
      data: {
        person: { slug: 'person:p', name: 'P' },
        office: { slug: 'office:co-governor', name: 'Governor', level: 'state', region: 'region:co' },
        term: '',
        start: '2019-01-08',
        end: null,
        party: null,
        ...contact,
      },
    };
    const key = principal({ contact: true });
    for (const [typed, object] of [
      [event(), node],
      [officeholder(), holderObject],
    ] as const) {
      const body = payloadFor(typed, key)!;
      expect(JSON.stringify(body.data.object)).toBe(JSON.stringify(object));
      expect(JSON.stringify(payloadFor(legacy(typed, object), key))).toBe(JSON.stringify(body));
    }
    expect(payloadFor(event(), key)!.data.changes).toEqual([FILING, EMAILS]);
  });
});

import { describe, expect, it } from 'vitest';
import { endpointFields, endpointPatch } from './endpoint-body.js';

function field(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { field?: string }).field;
  }
  return undefined;
}

describe('endpoint bodies', () => {
  it('reads a subscription: events de-duplicated and sorted, states lowercased', () => {
    expect(
      endpointFields({
        url: 'https://x.test/h',
        events: ['contest.created', 'officeholder.changed', 'candidacy.filing_status_changed', 'contest.created'],
        states: ['CO', 'de'],
      }),
    ).toEqual({
      url: 'https://x.test/h',
      events: ['candidacy.filing_status_changed', 'contest.created', 'officeholder.changed'],
      states: ['co', 'de'],
      description: '',
    });
  });

  it.each([
    [[1, 2], 'body'],
    [null, 'body'],
    [{ events: ['contest.created'] }, 'url'],
    [{ url: 'https://x.test' }, 'events'],
    [{ url: 'https://x.test', events: [] }, 'events'],
    [{ url: 'https://x.test', events: ['contest.exploded'] }, 'events[0]'],
    [{ url: 'https://x.test', events: ['officeholder.created'] }, 'events[0]'],
    [{ url: 'https://x.test', events: ['contest.created', 'key.revoked'] }, 'events[1]'],
    [{ url: 'https://x.test', events: Array(51).fill('contest.created') }, 'events'],
    [{ url: 'https://x.test', events: ['contest.created'], states: ['zz'] }, 'states[0]'],
    [{ url: 'https://x.test', events: ['contest.created'], states: 'co' }, 'states'],
    [{ url: 'https://x.test', events: ['contest.created'], description: 'x'.repeat(501) }, 'description'],
    [{ url: 'https://x.test', events: ['contest.created'], secret: 'mine' }, 'secret'],
  ])('refuses %j, naming %s', (body, name) => {
    expect(field(() => endpointFields(body))).toBe(name);
  });

  it('reads a patch of any subset, and refuses a bad one', () => {
    expect(endpointPatch({ enabled: true })).toEqual({ enabled: true });
    expect(endpointPatch({ states: ['TX'] })).toEqual({ states: ['tx'] });
    expect(field(() => endpointPatch({ enabled: 'yes' }))).toBe('enabled');
    expect(field(() => endpointPatch({ id: 'we_x' }))).toBe('id');
  });
});

import { describe, expect, it } from 'vitest';
import { contest } from '../conformance-fixtures.js';
import { entryOf, KindIndex, type Entry } from './kind-index.js';
import { plan } from './query-plan.js';

/** 1,200 contests: 6 dates, 3 states, 100 regions, so each condition has its own selectivity. */
function contests(): KindIndex {
  const entries = new Map<string, Entry>();
  const ki = new KindIndex(entries);
  for (let i = 0; i < 1200; i++) {
    const e = entryOf(
      contest(`c${i}`, {
        region: `region:r${i % 100}`,
        state: ['co', 'wy', 'ut'][i % 3],
        date: `2026-0${(i % 6) + 1}-01`,
      }),
    );
    entries.set(e.node.slug, e);
    ki.add(e);
  }
  return ki;
}

describe('query plan', () => {
  const ki = contests();

  it('walks the posting of a matched field, not every node of the kind', () => {
    const source = plan(ki, { kind: 'contest', match: { region: ['region:r7', 'region:r8'] }, limit: 10 });
    expect(source?.size).toBe(24);
    expect([...(source?.keys() ?? [])]).toHaveLength(24);
  });

  it('takes the smallest of several indexed conditions', () => {
    const source = plan(ki, {
      kind: 'contest',
      states: ['co'],
      match: { region: ['region:r7'] },
      dateFrom: '2026-02-01',
      dateTo: '2026-02-01',
      limit: 10,
    });
    expect(source?.size).toBe(12);
  });

  it('uses the date order for a date range when nothing narrower is indexed', () => {
    const source = plan(ki, {
      kind: 'contest',
      dateFrom: '2026-03-01',
      dateTo: '2026-03-01',
      order: 'date',
      limit: 10,
    });
    expect(source?.order).toBe('date');
    expect(source?.size).toBeLessThan(600);
    expect([...(source?.keys() ?? [])].every((k) => k.startsWith('2026-03-01\u0000'))).toBe(true);
  });

  it('knows without looking that an unknown value or an empty list matches nothing', () => {
    expect(plan(ki, { kind: 'contest', match: { region: ['region:none'] }, limit: 10 })).toBeUndefined();
    expect(plan(ki, { kind: 'contest', match: { office: [] }, limit: 10 })).toBeUndefined();
  });
});

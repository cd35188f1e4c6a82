import { describe, expect, it } from 'vitest';
import { lagSeconds } from '@civicgraph/kit';
import { ImportLag } from './import-lag.js';

/** civic_lag_seconds{stage="ingest"} as it stands: how many imports were observed, and their seconds in all. */
async function ingestLag(): Promise<{ count: number; sum: number }> {
  const values = (await lagSeconds.get()).values.filter((v) => v.labels['stage'] === 'ingest');
  const of = (name: string) => values.find((v) => v.metricName === name)?.value ?? 0;
  return { count: of('civic_lag_seconds_count'), sum: of('civic_lag_seconds_sum') };
}

const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, s));

describe('ingest import lag', () => {
  it('observes an import served at once from its fetch to its return', async () => {
    const before = await ingestLag();
    new ImportLag().imported(at(0), at(12), true);
    expect(await ingestLag()).toEqual({ count: before.count + 1, sum: before.sum + 12 });
  });

  it('observes maps served later when the map that serves them is imported, from each one’s own fetch', async () => {
    const before = await ingestLag();
    const lag = new ImportLag();
    lag.imported(at(0), at(5), false);
    lag.imported(at(10), at(15), false);
    expect(await ingestLag()).toEqual(before);
    lag.imported(at(20), at(30), true);
    // 30 − 0, 30 − 10, 30 − 20.
    expect(await ingestLag()).toEqual({ count: before.count + 3, sum: before.sum + 30 + 20 + 10 });
    lag.passEnded(at(40));
    expect((await ingestLag()).count).toBe(before.count + 3);
  });

  it('observes maps still waiting when the pass ends, at its end', async () => {
    const before = await ingestLag();
    const lag = new ImportLag();
    lag.imported(at(0), at(5), false);
    lag.passEnded(at(9));
    expect(await ingestLag()).toEqual({ count: before.count + 1, sum: before.sum + 9 });
  });
});

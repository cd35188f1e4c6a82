import { describe, expect, it } from 'vitest';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { EntitlementRequiredError, InvalidParameterError, UpstreamUnavailableError } from '@civicgraph/kit';
import { TurnBatcher, type Outcome, type SendBatch } from './turn-batcher.js';

const principal = (keyId: string) => ({ keyId }) as Principal;

/** An upstream stand-in that answers every number with its square, recording each call. */
function recording(answer: (n: number) => Outcome<number> = (n) => ({ value: n * n })) {
  const calls: { principal: Principal; requests: number[] }[] = [];
  const send: SendBatch<number, number> = async (who, requests) => {
    calls.push({ principal: who, requests });
    return requests.map(answer);
  };
  return { calls, send };
}

describe('TurnBatcher', () => {
  it('sends the requests one caller makes in one turn as one call, and gives each its own answer', async () => {
    const up = recording();
    const batcher = new TurnBatcher(up.send, 256);
    const alice = principal('key_a');
    const answers = await Promise.all([1, 2, 3].map((n) => batcher.ask(alice, n)));
    expect(up.calls).toHaveLength(1);
    expect(up.calls[0]!.requests).toEqual([1, 2, 3]);
    expect(answers).toEqual([1, 4, 9]);
  });

  it('never mixes callers in one call', async () => {
    const up = recording();
    const batcher = new TurnBatcher(up.send, 256);
    const alice = principal('key_a');
    const bob = principal('key_b');
    await Promise.all([batcher.ask(alice, 1), batcher.ask(bob, 2), batcher.ask(alice, 3)]);
    expect(up.calls).toHaveLength(2);
    const byKey = Object.fromEntries(up.calls.map((c) => [c.principal.keyId, c.requests]));
    expect(byKey).toEqual({ key_a: [1, 3], key_b: [2] });
  });

  it('sends a full batch at once and the rest on the next turn', async () => {
    const up = recording();
    const batcher = new TurnBatcher(up.send, 2);
    const alice = principal('key_a');
    const pending = [1, 2, 3, 4, 5].map((n) => batcher.ask(alice, n));
    expect(up.calls.map((c) => c.requests.length)).toEqual([2, 2]);
    await Promise.all(pending);
    expect(up.calls.map((c) => c.requests.length)).toEqual([2, 2, 1]);
  });

  it('starts a new batch for requests made after a flush', async () => {
    const up = recording();
    const batcher = new TurnBatcher(up.send, 256);
    const alice = principal('key_a');
    await batcher.ask(alice, 1);
    await batcher.ask(alice, 2);
    expect(up.calls).toHaveLength(2);
  });

  it('fails only the request upstream refused, with its typed error and field', async () => {
    const up = recording((n) =>
      n > 90 ? { error: { type: 'invalid_parameter', message: 'lat must be -90..90.', field: 'lat' } } : { value: n },
    );
    const batcher = new TurnBatcher(up.send, 256);
    const alice = principal('key_a');
    const [good, bad] = await Promise.allSettled([batcher.ask(alice, 1), batcher.ask(alice, 91)]);
    expect(good).toEqual({ status: 'fulfilled', value: 1 });
    expect(bad.status).toBe('rejected');
    const err = (bad as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect(err).toMatchObject({ field: 'lat', message: 'lat must be -90..90.' });
  });

  it('fails every request of a call that failed', async () => {
    const refusal = new EntitlementRequiredError('geography');
    const batcher = new TurnBatcher<number, number>(() => Promise.reject(refusal), 256);
    const alice = principal('key_a');
    const results = await Promise.allSettled([batcher.ask(alice, 1), batcher.ask(alice, 2)]);
    expect(results.map((r) => (r as PromiseRejectedResult).reason)).toEqual([refusal, refusal]);
  });

  it('refuses an answer that does not match the requests sent, instead of misassigning answers', async () => {
    const batcher = new TurnBatcher<number, number>(async () => [{ value: 1 }], 256);
    const alice = principal('key_a');
    const results = await Promise.allSettled([batcher.ask(alice, 1), batcher.ask(alice, 2)]);
    expect(results.every((r) => r.status === 'rejected' && r.reason.type === 'internal')).toBe(true);
  });

  it('passes transport failures through unchanged', async () => {
    const down = new UpstreamUnavailableError('The geo service is unavailable.');
    const batcher = new TurnBatcher<number, number>(() => Promise.reject(down), 256);
    await expect(batcher.ask(principal('key_a'), 1)).rejects.toBe(down);
  });

  it('rejects a batch size that is not a positive integer', () => {
    const up = recording();
    expect(() => new TurnBatcher(up.send, 0)).toThrow(RangeError);
    expect(() => new TurnBatcher(up.send, 1.5)).toThrow(RangeError);
  });
});

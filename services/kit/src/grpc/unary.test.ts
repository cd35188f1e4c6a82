import { Metadata, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { call } from './unary.js';
import { scaled } from '../testing/time-scale.js';

/** A client method that fails with the given codes, in order, then answers `ok`. */
function flaky(codes: status[]) {
  let calls = 0;
  const fn = (_req: unknown, _md: Metadata, _opts: unknown, cb: (err: { code: status } | null, res: string) => void) => {
    const code = codes[calls++];
    setImmediate(() => (code === undefined ? cb(null, 'ok') : cb({ code }, '')));
  };
  return { fn, calls: () => calls };
}

describe('call()', () => {
  it('retries a read that failed with UNAVAILABLE and returns its answer', async () => {
    const f = flaky([status.UNAVAILABLE, status.UNAVAILABLE]);
    await expect(call(f.fn as never, {}, new Metadata(), scaled(2_000))).resolves.toBe('ok');
    expect(f.calls()).toBe(3);
  });

  it('gives up after the last retry', async () => {
    const f = flaky([status.UNAVAILABLE, status.UNAVAILABLE, status.UNAVAILABLE]);
    await expect(call(f.fn as never, {}, new Metadata(), scaled(2_000))).rejects.toMatchObject({ code: status.UNAVAILABLE });
    expect(f.calls()).toBe(3);
  });

  it('does not retry other failures', async () => {
    const f = flaky([status.INVALID_ARGUMENT]);
    await expect(call(f.fn as never, {}, new Metadata(), scaled(2_000))).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(f.calls()).toBe(1);
  });

  it('does not retry past the deadline', async () => {
    const f = flaky([status.UNAVAILABLE]);
    await expect(call(f.fn as never, {}, new Metadata(), 20)).rejects.toMatchObject({ code: status.UNAVAILABLE });
    expect(f.calls()).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { LATEST_VERSION, VersionRegistry } from './versions.js';

describe('VersionRegistry', () => {
  it('serves the newest shape as is and walks older versions back through each newer downgrade, newest first', () => {
    const v = new VersionRegistry(['2026-01-01']);
    v.register('2026-06-01', (endpoint, body) =>
      endpoint === 'x' ? { ...(body as object), step: [...(body as { step: string[] }).step, 'from-06'] } : body,
    );
    v.register('2027-01-01', (_e, body) => ({
      ...(body as object),
      step: [...(body as { step: string[] }).step, 'from-2027'],
    }));
    expect(v.latest).toBe('2027-01-01');
    expect(v.known).toEqual(['2026-01-01', '2026-06-01', '2027-01-01']);
    expect(v.shape('2027-01-01', 'x', { step: [] })).toEqual({ step: [] });
    expect(v.shape('2026-06-01', 'x', { step: [] })).toEqual({ step: ['from-2027'] });
    expect(v.shape('2026-01-01', 'x', { step: [] })).toEqual({ step: ['from-2027', 'from-06'] });
    expect(v.shape('2026-01-01', 'y', { step: [] })).toEqual({ step: ['from-2027'] });
  });

  it('refuses a version that is not a date or not newer than the latest', () => {
    const v = new VersionRegistry();
    expect(v.latest).toBe(LATEST_VERSION);
    expect(() => v.register('soon', (_e, b) => b)).toThrow(/YYYY-MM-DD/);
    expect(() => v.register(LATEST_VERSION, (_e, b) => b)).toThrow(/newer/);
    expect(v.has('2020-01-01')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { assertJsonDepth } from './json-depth.js';

const nested = (n: number): unknown => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`);

describe('assertJsonDepth', () => {
  it('accepts values up to the depth, scalars and empty containers included', () => {
    expect(() => assertJsonDepth({ a: [1, { b: 'x' }] }, 3, 'parameters')).not.toThrow();
    expect(() => assertJsonDepth(nested(3), 3, 'parameters')).not.toThrow();
    expect(() => assertJsonDepth('x', 0, 'parameters')).not.toThrow();
  });

  it('refuses deeper values naming the field, however deep, without exhausting the stack', () => {
    expect(() => assertJsonDepth(nested(4), 3, 'parameters')).toThrow('parameters is nested more than 3 levels deep');
    expect(() => assertJsonDepth(nested(100_000), 32, 'parameters')).toThrow(/nested more than 32/);
  });
});

import { describe, expect, it } from 'vitest';
import { nestingDepth } from './prepare.js';

describe('nestingDepth', () => {
  it('counts the deepest open brackets of every kind', () => {
    expect(nestingDepth('{ a }')).toBe(1);
    expect(nestingDepth('{ a(x: [[1], [2]]) { b } }')).toBe(4);
    expect(nestingDepth(`{ f(x: ${'['.repeat(5000)}${']'.repeat(5000)}) }`)).toBe(5002);
  });

  it('skips brackets inside strings, block strings and comments', () => {
    expect(nestingDepth('{ a(s: "[[[[{{{(\\"") }')).toBe(2);
    expect(nestingDepth('{ a(s: """ [[[[ {{{ """) }')).toBe(2);
    expect(nestingDepth('# [[[[[[[[\n{ a }')).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { parsed } from './parsed.js';

describe('parsed', () => {
  it('parses a text once and hands the same frozen tree to every later run', () => {
    const text = 'MATCH (c:Candidacy) RETURN count(c) AS n';
    const first = parsed(text);
    expect(parsed(text)).toBe(first);
    expect(Object.isFrozen(first.clauses[0])).toBe(true);
    expect(() => (first.clauses as unknown[]).push(null)).toThrow(TypeError);
  });

  it('keeps no refusal: a bad text is refused every time', () => {
    expect(() => parsed('CREATE (n) RETURN n')).toThrow(/CREATE/);
    expect(() => parsed('CREATE (n) RETURN n')).toThrow(/CREATE/);
  });

  it('keeps the 256 texts used last', () => {
    const text = 'MATCH (p:Party) RETURN p.name';
    const first = parsed(text);
    for (let i = 0; i < 255; i++) parsed(`RETURN ${i} AS n`);
    expect(parsed(text)).toBe(first);
    for (let i = 0; i < 256; i++) parsed(`RETURN ${i + 1000} AS n`);
    expect(parsed(text)).not.toBe(first);
  });
});
